import Foundation
import HTTPTypes
import NIOCore
import Testing
import WOPIDeployment
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// A provider's own parts plug into `WOPIDeployment` without touching the rest: their users, their policy and
/// their identity provider's tokens, checked in-process through the deployment's host.
@Suite struct DeploymentPlugInTests {
    /// An identity provider of the provider's own: one SSO token for one user.
    struct SSOVerifier: OAuthAccessTokenVerifier {
        func userID(forAccessToken token: String) async throws -> String? { token == "sso-token" ? "ana" : nil }
    }

    /// A policy of the provider's own: everyone may view, nobody may change anything.
    struct ReadOnlyPolicy: AccessPolicy {
        func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess { .view }
        func sharedItems(with user: WOPIUser) async throws -> [StorageItem] { [] }
    }

    static func request(_ method: HTTPRequest.Method, _ target: String, _ fields: HTTPFields = [:]) -> WOPIRequest {
        WOPIRequest(
            head: HTTPRequest(
                method: method, scheme: "http", authority: "wopi.test", path: target, headerFields: fields))
    }

    @Test("own users, policy and identity provider: the rest of the deployment stays as it is")
    func ownParts() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var stores = try DeploymentStores.fileSystem(directory: directory.url)
        stores.users = InMemoryUserDirectory([
            WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil)
        ])
        var configuration = WOPIDeployment.Configuration()
        configuration.authorizationEndpoint = "https://sso.example.com/authorize"
        configuration.tokenEndpoint = "https://sso.example.com/token"
        let deployment = try await WOPIDeployment(
            stores: stores, configuration: configuration, policy: ReadOnlyPolicy(), tokenVerifier: SSOVerifier())

        let refused = await deployment.host.handle(Self.request(.get, "/wopibootstrapper"))
        #expect(refused.status == .unauthorized)
        #expect(refused.headers[.wwwAuthenticate]?.contains("https://sso.example.com/authorize") == true)

        let bootstrap = await deployment.host.handle(
            Self.request(
                .post, "/wopibootstrapper",
                [.authorization: "Bearer sso-token", .wopiEcosystemOperation: "GET_ROOT_CONTAINER"]))
        #expect(bootstrap.status == .ok)

        let root = try await stores.storage.rootContainer(forUser: "ana")
        let file = try await stores.storage.createFile(named: "a.txt", in: root.id, content: .empty, overwrite: false)
        let (token, _) = deployment.host.mintToken(userID: "ana", resource: .file(file.id))
        let info = await deployment.host.handle(Self.request(.get, "/wopi/files/\(file.id)?access_token=\(token)"))
        #expect(info.status == .ok)
        guard case .buffer(let body) = info.body else { Issue.record("CheckFileInfo has no body"); return }
        let json = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
        #expect(json?["UserCanWrite"] as? Bool == false, "the provider's policy decides")
        #expect(json?["UserFriendlyName"] as? String == "Ana", "the provider's users")
    }
}
