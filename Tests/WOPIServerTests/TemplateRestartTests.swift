import Foundation
import HTTPTypes
import NIOCore
import Testing
import WOPIDeployment
import WOPIHTTPEdge
import WOPIServer
import WOPIServerConformance
import WOPIStorage
import WOPITestSupport

/// The deployments on a data directory keep their templates in `DIRECTORY/templates/` and which document was made
/// from which beside the data: a document made from a template still opens with it after a restart.
@Suite struct TemplateRestartTests {
    static func deployment(_ directory: URL, kind: String) async throws -> WOPIDeployment {
        var stores =
            kind == "sqlite"
            ? try DeploymentStores.sqlite(directory: directory) : try DeploymentStores.fileSystem(directory: directory)
        stores.users = InMemoryUserDirectory([
            WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil)
        ])
        var configuration = WOPIDeployment.Configuration()
        configuration.publicURL = "http://wopi.test"
        return try await WOPIDeployment(stores: stores, configuration: configuration, policy: stores.sharingPolicy)
    }

    static func request(_ method: HTTPRequest.Method, _ target: String, body: String? = nil) -> WOPIRequest {
        var head = HTTPRequest(method: method, scheme: "http", authority: "wopi.test", path: target)
        if body != nil { head.headerFields[HTTPField.Name("X-WOPI-Override")!] = "PUT" }
        return WOPIRequest(head: head, body: body.map { ByteStream(chunks: [ByteBuffer(string: $0)]) } ?? .empty)
    }

    @Test(
        "TemplateSource and the template survive a restart; the first save after it forgets them",
        arguments: ["sqlite", "fs"])
    func survivesRestart(_ kind: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try TemplateStoreConformance.writeTemplates(to: folder.appending("templates"))

        let before = try await Self.deployment(folder.url, kind: kind)
        #expect(try await before.host.configuration.templates?.templates().map(\.id) == ["Budget.ots", "Letter.dotx"])
        let root = try await before.host.storage.rootContainer(forUser: "ana")
        let ana = try #require(try await before.host.users.user("ana"))
        let file = try await before.host.createDocument(
            fromTemplate: "Letter.dotx", named: "Offer", in: root.id, for: ana)
        #expect(file.name == "Offer.docx" && file.size == 0)

        // A new deployment on the same directory: a restarted host.
        let after = try await Self.deployment(folder.url, kind: kind)
        let (token, _) = after.host.mintToken(userID: "ana", resource: .file(file.id))
        let info = await after.host.handle(Self.request(.get, "/wopi/files/\(file.id)?access_token=\(token)"))
        let source = try #require(info.json["TemplateSource"] as? String, "TemplateSource after the restart")
        let templateTarget = String(source.dropFirst("http://wopi.test".count))
        let template = await after.host.handle(Self.request(.get, templateTarget))
        guard case .stream(let body) = template.body else {
            Issue.record("the template has no body (\(template.status.code))")
            return
        }
        #expect(String(buffer: try await body.collect(upTo: 100)) == "LETTERHEAD")

        let save = await after.host.handle(
            Self.request(.post, "/wopi/files/\(file.id)/contents?access_token=\(token)", body: "LETTERHEAD+offer"))
        #expect(save.status == .ok)
        let again = try await Self.deployment(folder.url, kind: kind)
        #expect(try await again.host.configuration.templates?.template(of: file.id) == nil)
        #expect(await again.host.handle(Self.request(.get, templateTarget)).status == .notFound)
        let reopened = await again.host.handle(Self.request(.get, "/wopi/files/\(file.id)?access_token=\(token)"))
        #expect(reopened.json["TemplateSource"] == nil && reopened.json["Size"] as? Int == 16)
    }
}
