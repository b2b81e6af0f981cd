import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// The CSPP flows of the protocol Docs/wopi-protocol.md (§1, §7-§10, §16) over real HTTP, step by step in Office's
/// order: Add a Place, Browse and open, Save and close, then GetNewAccessToken once the WOPI token has expired.
@Suite("Office's flows, in order, over real HTTP")
struct OfficeFlowTests {
    @Test(
        "challenge → sign-in → code → token (client secret) → Bootstrap → root → children → container → file → locks → save → renewal"
    )
    func addAPlaceBrowseOpenSaveAndRenew() async throws {
        try await TestAuthServer.run { oauth in
            let bootstrapper = oauth.baseURL + "/wopibootstrapper"
            let root = try await oauth.host.storage.rootContainer(forUser: "ana")
            let documents = try await oauth.host.storage.createContainer(named: "Documents", in: root.id)
            _ = try await oauth.host.storage.createFile(
                named: "Plan.docx", in: documents.id, content: ByteStream(buffer: ByteBuffer(string: "version one")),
                overwrite: false)

            // Add a Place: the anonymous bootstrapper call gets the challenge naming our endpoints.
            let anonymous = try await oauth.get(bootstrapper)
            #expect(anonymous.status == 401)
            let challenge = try #require(anonymous.header("www-authenticate"))
            #expect(challenge.contains("authorization_uri=\"\(oauth.authorizeURL)\""))
            #expect(challenge.contains("tokenIssuance_uri=\"\(oauth.tokenURL)\""))

            // Sign-in page → code at the stop URL → tokens with the client secret.
            let code = try await oauth.officeCode()
            let tokenReply = try await oauth.redeemOfficeCode(code)
            #expect(tokenReply.status == 200)
            #expect(tokenReply.header("cache-control") == "no-store")
            let oauthToken = try #require(try tokenReply.json()["access_token"] as? String)
            let bearer = ["Authorization": "Bearer \(oauthToken)"]

            // Authenticated Bootstrap, then the GET_ROOT_CONTAINER shortcut.
            let bootstrap = try await oauth.get(bootstrapper, headers: bearer)
            #expect(bootstrap.status == 200)
            #expect((try bootstrap.json()["Bootstrap"] as? [String: Any])?["UserId"] as? String == "ana")
            let rootReply = try await oauth.send(
                .POST, bootstrapper, headers: bearer.merging(["X-WOPI-EcosystemOperation": "GET_ROOT_CONTAINER"]) { $1 }
            )
            #expect(rootReply.status == 200)
            let rootInfo = try #require(try rootReply.json()["RootContainerInfo"] as? [String: Any])
            let rootURL = try #require((rootInfo["ContainerPointer"] as? [String: Any])?["Url"] as? String)

            // Browse: EnumerateChildren of the root, then CheckContainerInfo of Documents and its children.
            let rootChildren = try await oauth.get(Self.endpoint(rootURL, "children"))
            #expect(rootChildren.status == 200)
            let containers = try #require(try rootChildren.json()["ChildContainers"] as? [[String: Any]])
            #expect(
                !containers.contains { $0["Name"] as? String == "Shared with me" }, "nothing is shared with Ana yet")
            let documentsURL = try #require(
                containers.first { $0["Name"] as? String == "Documents" }?["Url"] as? String)
            let containerInfo = try await oauth.get(documentsURL)
            #expect(containerInfo.status == 200)
            #expect(try containerInfo.json()["Name"] as? String == "Documents")
            let children = try await oauth.get(Self.endpoint(documentsURL, "children"))
            let files = try #require(try children.json()["ChildFiles"] as? [[String: Any]])
            let fileURL = try #require(files.first { $0["Name"] as? String == "Plan.docx" }?["Url"] as? String)

            // Open: CheckFileInfo → GetLock → Lock → GetFile.
            let info = try await oauth.get(fileURL)
            #expect(info.status == 200)
            #expect(try info.json()["BaseFileName"] as? String == "Plan.docx")
            let getLock = try await oauth.send(.POST, fileURL, headers: ["X-WOPI-Override": "GET_LOCK"])
            #expect(getLock.status == 200 && getLock.header("x-wopi-lock") == "")
            let lock = try await oauth.send(
                .POST, fileURL, headers: ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "office-1"])
            #expect(lock.status == 200)
            let contents = try await oauth.get(Self.endpoint(fileURL, "contents"))
            #expect(contents.status == 200 && contents.text == "version one")

            // Save and close: PutFile with the lock → Unlock.
            let put = try await oauth.send(
                .POST, Self.endpoint(fileURL, "contents"),
                headers: ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "office-1"],
                body: "version two")
            #expect(put.status == 200)
            #expect(put.header("x-wopi-itemversion") != nil)
            let unlock = try await oauth.send(
                .POST, fileURL, headers: ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "office-1"])
            #expect(unlock.status == 200)

            // The WOPI token expires: 401; GET_NEW_ACCESS_TOKEN with the WOPISrc mints a new one that works.
            oauth.clock.advance(by: WOPIHostConfiguration().accessTokenLifetime + 60)
            #expect(try await oauth.get(fileURL).status == 401)
            let freshOAuth = try #require(try await oauth.officeTokens()["access_token"] as? String)
            let wopiSrc = String(fileURL.prefix { $0 != "?" })
            let renewal = try await oauth.send(
                .POST, bootstrapper,
                headers: [
                    "Authorization": "Bearer \(freshOAuth)", "X-WOPI-EcosystemOperation": "GET_NEW_ACCESS_TOKEN",
                    "X-WOPI-WopiSrc": wopiSrc,
                ])
            #expect(renewal.status == 200)
            let accessTokenInfo = try #require(try renewal.json()["AccessTokenInfo"] as? [String: Any])
            let newToken = try #require(accessTokenInfo["AccessToken"] as? String)
            let reopened = try await oauth.get(wopiSrc + "/contents?access_token=" + Web.encode(newToken))
            #expect(reopened.status == 200 && reopened.text == "version two")
        }
    }

    /// `url` with `/suffix` added to its path, keeping its query (the access token).
    static func endpoint(_ url: String, _ suffix: String) -> String {
        let parts = url.split(separator: "?", maxSplits: 1)
        return parts[0] + "/" + suffix + (parts.count > 1 ? "?" + parts[1] : "")
    }

    @Test("a folder shared with the signed-in user is browsed and edited through the bootstrapper's root container")
    func sharedFolderThroughTheBootstrapper() async throws {
        try await TestAuthServer.run { oauth in
            let bootstrapper = oauth.baseURL + "/wopibootstrapper"
            let storage = oauth.host.storage
            let bobRoot = try await storage.rootContainer(forUser: "bob")
            let team = try await storage.createContainer(named: "Team", in: bobRoot.id)
            let plan = try await storage.createFile(
                named: "Plan.docx", in: team.id, content: ByteStream(buffer: ByteBuffer(string: "bob's plan")),
                overwrite: false)
            try await oauth.shares.grant(
                Share(itemID: team.id, granteeID: "ana", permission: .edit, grantedBy: "bob", grantedAt: Date()))

            let tokens = try await oauth.redeemOfficeCode(try await oauth.officeCode())
            let bearer = ["Authorization": "Bearer \(try #require(try tokens.json()["access_token"] as? String))"]
            let rootReply = try await oauth.send(
                .POST, bootstrapper, headers: bearer.merging(["X-WOPI-EcosystemOperation": "GET_ROOT_CONTAINER"]) { $1 }
            )
            let rootInfo = try #require(try rootReply.json()["RootContainerInfo"] as? [String: Any])
            let rootURL = try #require((rootInfo["ContainerPointer"] as? [String: Any])?["Url"] as? String)
            let rootChildren = try #require(
                try await oauth.get(Self.endpoint(rootURL, "children")).json()["ChildContainers"] as? [[String: Any]])
            let sharedURL = try #require(
                rootChildren.first { $0["Name"] as? String == "Shared with me" }?["Url"] as? String)
            let shared = try #require(
                try await oauth.get(Self.endpoint(sharedURL, "children")).json()["ChildContainers"] as? [[String: Any]])
            let teamURL = try #require(shared.first { $0["Name"] as? String == "Team" }?["Url"] as? String)
            let files = try #require(
                try await oauth.get(Self.endpoint(teamURL, "children")).json()["ChildFiles"] as? [[String: Any]])
            let fileURL = try #require(files.first { $0["Name"] as? String == "Plan.docx" }?["Url"] as? String)
            #expect(try await oauth.get(fileURL).json()["UserCanWrite"] as? Bool == true)
            let lock = try await oauth.send(.POST, fileURL, headers: ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "a"])
            #expect(lock.status == 200)
            let put = try await oauth.send(
                .POST, Self.endpoint(fileURL, "contents"), headers: ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "a"],
                body: "ana's edit")
            #expect(put.status == 200)
            #expect(String(buffer: try await storage.readFile(plan.id).body.collect(upTo: 100)) == "ana's edit")
        }
    }
}
