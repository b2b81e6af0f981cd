import Crypto
import Foundation
import NIOCore
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Ana's items and the shares of the end-to-end flow: Projects (with Plan.docx) shared with Bob to edit, Budget.xlsx
/// shared with Carol to view. Dave gets nothing.
struct SharingFixture {
    let storage: any StorageBackend = InMemoryStorage()
    let shares = InMemoryShareStore()
    var policy: SharingAccessPolicy { SharingAccessPolicy(storage: storage, shares: shares) }

    func seed() async throws -> (projects: ContainerMetadata, plan: FileMetadata, budget: FileMetadata) {
        let root = try await storage.rootContainer(forUser: "ana")
        let projects = try await storage.createContainer(named: "Projects", in: root.id)
        let plan = try await storage.createFile(
            named: "Plan.docx", in: projects.id, content: ByteStream(chunks: [ByteBuffer(string: "v1")]),
            overwrite: false)
        let budget = try await storage.createFile(
            named: "Budget.xlsx", in: root.id, content: ByteStream(chunks: [ByteBuffer(string: "b1")]),
            overwrite: false)
        try await shares.grant(
            Share(itemID: projects.id, granteeID: "bob", permission: .edit, grantedBy: "ana", grantedAt: Date()))
        try await shares.grant(
            Share(itemID: budget.id, granteeID: "carol", permission: .view, grantedBy: "ana", grantedAt: Date()))
        return (projects, plan, budget)
    }
}

/// Reads a JSON body.
func decode<T: Decodable>(_ type: T.Type, _ reply: HTTP.Reply) throws -> T {
    try WOPIJSON.decoder.decode(T.self, from: Data(reply.body.readableBytesView))
}

@Suite("Sharing through the host's routes, in-process: shares, Shared with me, view-only access, unsharing")
struct SharingTests {
    @Test("Bob browses to the shared folder from his ecosystem and edits; Carol views; Dave sees nothing")
    func endToEnd() async throws {
        let fixture = SharingFixture()
        try await TestHost.run(storage: fixture.storage, policy: fixture.policy) { wopi in
            let (projects, plan, budget) = try await fixture.seed()

            // Bob: ecosystem → root → "Shared with me" → Projects → Plan.docx.
            let ecosystem = "\(wopi.wopiRoot)/ecosystem/root_container_pointer?access_token="
            let pointer = try decode(
                ContainerPointerResponse.self, try await wopi.get(ecosystem + wopi.token(.ecosystem, user: "bob")))
            let root = try decode(
                EnumerateChildrenResponse.self,
                try await wopi.get(pointer.containerPointer.url.replacingOccurrences(of: "?", with: "/children?")))
            let shared = try #require(root.childContainers.first { $0.name == SharedWithMe.name })
            let sharedInfo = try decode(CheckContainerInfo.self, try await wopi.get(shared.url))
            #expect(sharedInfo.name == "Shared with me" && sharedInfo.userCanCreateChildFile == false)
            let sharedChildren = try decode(
                EnumerateChildrenResponse.self,
                try await wopi.get(shared.url.replacingOccurrences(of: "?", with: "/children?")))
            #expect(sharedChildren.childContainers.map(\.name) == ["Projects"])
            #expect(sharedChildren.childFiles.isEmpty, "Carol's file is not Bob's")
            let projectsURL = sharedChildren.childContainers[0].url
            let projectsInfo = try decode(CheckContainerInfo.self, try await wopi.get(projectsURL))
            #expect(projectsInfo.userCanCreateChildFile == true, "Bob may create in the folder shared with him")
            #expect(projectsInfo.userCanRename == false && projectsInfo.userCanDelete == false, "but not rename it")
            let files = try decode(
                EnumerateChildrenResponse.self,
                try await wopi.get(projectsURL.replacingOccurrences(of: "?", with: "/children?")))
            let planURL = try #require(files.childFiles.first { $0.name == "Plan.docx" }?.url)
            let info = try decode(CheckFileInfo.self, try await wopi.get(planURL))
            #expect(info.userCanWrite == true && info.ownerID == "ana" && info.userID == "bob")
            let lock = ["X-WOPI-Lock": "bob-lock"]
            #expect(try await wopi.post(planURL, lock.merging(["X-WOPI-Override": "LOCK"]) { $1 }).status == 200)
            let contents = planURL.replacingOccurrences(of: "?", with: "/contents?")
            #expect(
                try await wopi.post(contents, lock.merging(["X-WOPI-Override": "PUT"]) { $1 }, body: "bob's").status
                    == 200)
            #expect(try await wopi.post(planURL, lock.merging(["X-WOPI-Override": "UNLOCK"]) { $1 }).status == 200)
            #expect(String(buffer: try await wopi.host.storage.readFile(plan.id).body.collect(upTo: 100)) == "bob's")
            // Bob's path to the file is his own: his root, Shared with me, Projects.
            let ancestry = try decode(
                AncestorsResponse.self, try await wopi.get(planURL.replacingOccurrences(of: "?", with: "/ancestry?")))
            #expect(ancestry.ancestorsWithRootFirst.map(\.name) == ["bob", "Shared with me", "Projects"])

            // Carol: view only; every write is refused and changes nothing.
            let carol = wopi.token(.file(budget.id), user: "carol")
            let carolInfo = try decode(CheckFileInfo.self, try await wopi.get(wopi.fileURL(budget.id, token: carol)))
            #expect(carolInfo.userCanWrite == false && carolInfo.readOnly == true)
            #expect(carolInfo.userCanNotWriteRelative == true && carolInfo.userCanRename == false)
            #expect(try await wopi.get(wopi.fileURL(budget.id, "/contents", token: carol)).text == "b1")
            let carolLock = try await wopi.post(
                wopi.fileURL(budget.id, token: carol), ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "c"])
            #expect(carolLock.status == 401)
            let carolPut = try await wopi.post(
                wopi.fileURL(budget.id, "/contents", token: carol), ["X-WOPI-Override": "PUT"], body: "carol's")
            #expect(carolPut.status == 401)
            #expect(String(buffer: try await wopi.host.storage.readFile(budget.id).body.collect(upTo: 100)) == "b1")

            // Dave: nothing exists.
            let dave = wopi.token(.file(plan.id), user: "dave")
            #expect(try await wopi.get(wopi.fileURL(plan.id, token: dave)).status == 404)
            let daveFolder = wopi.token(.container(projects.id), user: "dave")
            #expect(try await wopi.get(wopi.containerURL(projects.id, token: daveFolder)).status == 404)
            let daveRoot = try await wopi.host.storage.rootContainer(forUser: "dave")
            let daveListing = try decode(
                EnumerateChildrenResponse.self,
                try await wopi.get(
                    wopi.containerURL(
                        daveRoot.id, "/children", token: wopi.token(.container(daveRoot.id), user: "dave"))))
            #expect(!daveListing.childContainers.contains { $0.name == SharedWithMe.name })

            // Unsharing takes effect at once, for the tokens Bob already holds too.
            try await fixture.shares.revoke(itemID: projects.id, granteeID: "bob")
            #expect(try await wopi.get(planURL).status == 404)
            #expect(try await wopi.get(projectsURL).status == 404)
            let after = try decode(
                EnumerateChildrenResponse.self,
                try await wopi.get(shared.url.replacingOccurrences(of: "?", with: "/children?")))
            #expect(after.childContainers.isEmpty)
        }
    }

    @Test("a file shared with Carol opens by its 'Shared with me' path through GetFileWopiSrc")
    func sharedPath() async throws {
        let fixture = SharingFixture()
        try await TestHost.run(storage: fixture.storage, policy: fixture.policy) { wopi in
            let (_, _, budget) = try await fixture.seed()
            let reply = try await wopi.post(
                "\(wopi.wopiRoot)/ecosystem?access_token=\(wopi.token(.ecosystem, user: "carol"))",
                [
                    "X-WOPI-Override": "GET_WOPI_SRC_WITH_ACCESS_TOKEN",
                    "X-WOPI-HostNativeFileName": "Shared with me/Budget.xlsx",
                ])
            #expect(reply.status == 200)
            #expect(try decode(URLResponse.self, reply).url.contains("/files/\(budget.id)?"))
            let dave = try await wopi.post(
                "\(wopi.wopiRoot)/ecosystem?access_token=\(wopi.token(.ecosystem, user: "dave"))",
                [
                    "X-WOPI-Override": "GET_WOPI_SRC_WITH_ACCESS_TOKEN",
                    "X-WOPI-HostNativeFileName": "Shared with me/Budget.xlsx",
                ])
            #expect(dave.status == 404)
        }
    }

    @Test("GetShareUrl: the owner gets ReadOnly and ReadWrite links that grant what they say; others cannot share")
    func shareLinks() async throws {
        let fixture = SharingFixture()
        let key = SymmetricKey(size: .bits256)
        var configuration = WOPIHostConfiguration()
        configuration.shareLinks = ShareLinks(tokenKey: key)
        try await TestHost.run(storage: fixture.storage, configuration: configuration, policy: fixture.policy) {
            wopi in
            let (projects, plan, _) = try await fixture.seed()
            let info = try decode(CheckFileInfo.self, try await wopi.get(wopi.fileURL(plan.id)))
            #expect(info.supportedShareURLTypes == ["ReadOnly", "ReadWrite"])
            let folderInfo = try decode(CheckContainerInfo.self, try await wopi.get(wopi.containerURL(projects.id)))
            #expect(folderInfo.supportedShareUrlTypes == ["ReadOnly", "ReadWrite"])
            for (type, permission) in [("ReadOnly", Permission.view), ("ReadWrite", .edit)] {
                let reply = try await wopi.post(
                    wopi.fileURL(plan.id), ["X-WOPI-Override": "GET_SHARE_URL", "X-WOPI-UrlType": type])
                #expect(reply.status == 200)
                let url = try decode(ShareURLResponse.self, reply).shareURL
                #expect(url.hasPrefix(wopi.baseURL + "/share/"))
                let token = String(url.dropFirst((wopi.baseURL + "/share/").count))
                let grant = try #require(ShareLinks(tokenKey: key).grant(ofToken: token, now: Date()))
                #expect(grant.itemID == plan.id && grant.permission == permission && grant.grantor == "ana")
                #expect(ShareLinks(tokenKey: key).grant(ofToken: token + "x", now: Date()) == nil, "tampered")
                #expect(
                    ShareLinks(tokenKey: key).grant(ofToken: token, now: Date().addingTimeInterval(31 * 86400)) == nil,
                    "expired")
                #expect(try await wopi.get(wopi.fileURL(plan.id, token: token)).status == 401, "not an access token")
            }
            let container = try await wopi.post(
                wopi.containerURL(projects.id), ["X-WOPI-Override": "GET_SHARE_URL", "X-WOPI-UrlType": "ReadOnly"])
            #expect(container.status == 200)
            let unknown = try await wopi.post(
                wopi.fileURL(plan.id), ["X-WOPI-Override": "GET_SHARE_URL", "X-WOPI-UrlType": "Anyone"])
            #expect(unknown.status == 501)
            let bob = wopi.token(.file(plan.id), user: "bob")
            let bobInfo = try decode(CheckFileInfo.self, try await wopi.get(wopi.fileURL(plan.id, token: bob)))
            #expect(bobInfo.supportedShareURLTypes == nil, "only the owner is offered share links")
            let bobShare = try await wopi.post(
                wopi.fileURL(plan.id, token: bob), ["X-WOPI-Override": "GET_SHARE_URL", "X-WOPI-UrlType": "ReadOnly"])
            #expect(bobShare.status == 401)
        }
    }

    @Test("unsharing a folder revokes the links to items inside it, so the grantee cannot take the access back")
    func unsharingAFolderRevokesTheLinksBelowIt() async throws {
        let fixture = SharingFixture()
        let links = ShareLinks(tokenKey: SymmetricKey(size: .bits256), store: fixture.shares)
        var configuration = WOPIHostConfiguration()
        configuration.shareLinks = links
        try await TestHost.run(storage: fixture.storage, configuration: configuration, policy: fixture.policy) {
            wopi in
            let (projects, plan, budget) = try await fixture.seed()
            func link(_ item: StorageItem) async throws -> String {
                let url = try await links.url(
                    for: item, type: .readWrite, grantor: "ana", publicURL: wopi.baseURL, now: wopi.clock.date)
                return String(url.dropFirst((wopi.baseURL + links.pagePath).count))
            }
            let planLink = try await link(.file(plan))
            let budgetLink = try await link(.file(budget))
            let bob = WOPIUser(id: "bob", signInName: "bob@example.com", displayName: "Bob", passwordHash: nil)
            #expect(
                try await links.revokeShare(itemID: projects.id, granteeID: "bob", grantedBy: "ana", in: wopi.storage))
            #expect(try await wopi.host.redeemShareLink(planLink, for: bob) == nil, "the link inside the folder")
            #expect(try await wopi.host.policy.access(of: bob, to: .file(plan)).permission == .none)
            let outside = try await wopi.host.redeemShareLink(budgetLink, for: bob)
            #expect(outside?.access.permission == .edit, "a link outside the folder still works")
        }
    }
}
