import Crypto
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import WOPIDeployment
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Every entry point asks one door (`WOPIHost.authorize`): a guard that vetoes every change is asked on every write
/// path and refuses each, and a policy that lets nobody see anything hides every item on every read path. Each
/// argument is a path; a path that gets through names itself in the failure.
@Suite("One door: a vetoing guard on every write path, a denying policy on every read path")
struct OneDoorTests {
    typealias Session = ChunkedTransferTests.Session
    typealias Uploader = UploadSessionTests.Uploader

    /// Refuses every change, and remembers what it was shown.
    final class RefuseEverything: ChangeGuard {
        let seen = Mutex<[ItemAction]>([])
        func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
            seen.withLock { $0.append(change.action) }
            throw ContentVeto.refused("Nothing changes here.")
        }
    }

    /// Lets nobody see anything, the owner included, while `hides`; the owner's rights otherwise.
    final class SeesNothing: AccessPolicy {
        let hides = Mutex(true)
        func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
            hides.withLock { $0 } ? .none : try await OwnerAccessPolicy().access(of: user, to: item)
        }
    }

    /// The ways a change reaches a host.
    enum WritePath: String, CaseIterable, Sendable {
        case putFile, putRelativeFile, putChunkedFile, uploadSessionCommit, renameFile, deleteFile
        case createChildFile, createChildContainer, renameContainer, deleteContainer
        case hostCreateFile, hostReplaceFile, hostCreateFolders, hostCreateDocument, template
    }

    /// The ways an item is read from a host.
    enum ReadPath: String, CaseIterable, Sendable {
        case checkFileInfo, getFile, getLock, enumerateFileAncestors, getChunkedFile, getSequenceNumber
        case checkContainerInfo, enumerateChildren, enumerateContainerAncestors, fileURL, getFileWopiSrc
        case hostItem, hostReadFile, hostContainerView
    }

    static var configuration: WOPIHostConfiguration {
        var configuration = WOPILockExtensionTests.coauthoring
        configuration.coauthoring?.uploadSessions = InMemoryUploadSessionStore()
        configuration.templates = InMemoryTemplateStore([
            (Template(id: "memo", name: "Memo", documentExtension: "docx"), Array("memo".utf8))
        ])
        configuration.fileURLs = FileURLs(tokenKey: SymmetricKey(size: .bits256))
        return configuration
    }

    @Test(
        "a guard that vetoes every change refuses each write path, and nothing changes", arguments: WritePath.allCases)
    func vetoOnEveryWritePath(_ path: WritePath) async throws {
        let refuse = RefuseEverything()
        try await TestHost.run(configuration: Self.configuration, changeGuards: [refuse]) { wopi in
            let file = try await wopi.seedFile("plan.txt", "v1")
            let root = try await wopi.storage.rootContainer(forUser: wopi.user)
            let folder = try await wopi.storage.createContainer(named: "folder", in: root.id)
            if [.putFile, .putChunkedFile, .uploadSessionCommit].contains(path) {
                // A save of a file with content needs the lock (or answers 409 before any guard is asked).
                let locked = try await wopi.post(
                    wopi.fileURL(file.id), ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"])
                #expect(locked.status == 200)
            }
            let before = try await Self.tree(wopi.storage, root.id)
            let ana = try #require(try await wopi.host.users.user(wopi.user))

            var status: Int?
            switch path {
            case .putFile:
                status = try await wopi.post(
                    wopi.fileURL(file.id, "/contents"), ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L"], body: "v2"
                ).status
            case .putRelativeFile:
                status = try await wopi.post(
                    wopi.fileURL(file.id), ["X-WOPI-Override": "PUT_RELATIVE", "X-WOPI-SuggestedTarget": ".docx"],
                    body: "v2"
                ).status
            case .putChunkedFile:
                let session = Session(wopi: wopi, file: file.id)
                status = try await session.putChunkedFile(
                    ["MainContent": Array("v2".utf8)], sequence: try await session.sequenceNumber(),
                    headers: ["X-WOPI-Lock": "L"]
                ).status
            case .uploadSessionCommit:
                let uploader = Uploader(wopi: wopi, file: file.id)
                let token = try await uploader.create()
                let stream = UploadSessionTests.sessionStream(of: Array("v2".utf8))
                #expect(try await uploader.update(token, offset: 0, stream[...]).status == 200)
                status = try await uploader.commit(token, content: Array("v2".utf8), lock: "L").status
            case .renameFile:
                status = try await wopi.post(
                    wopi.fileURL(file.id), ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "other"]
                ).status
            case .deleteFile:
                status = try await wopi.post(wopi.fileURL(file.id), ["X-WOPI-Override": "DELETE"]).status
            case .createChildFile:
                status = try await wopi.post(
                    wopi.containerURL(folder.id),
                    ["X-WOPI-Override": "CREATE_CHILD_FILE", "X-WOPI-SuggestedTarget": "new.txt"]
                ).status
            case .createChildContainer:
                status = try await wopi.post(
                    wopi.containerURL(folder.id),
                    ["X-WOPI-Override": "CREATE_CHILD_CONTAINER", "X-WOPI-SuggestedTarget": "sub"]
                ).status
            case .renameContainer:
                status = try await wopi.post(
                    wopi.containerURL(folder.id),
                    ["X-WOPI-Override": "RENAME_CONTAINER", "X-WOPI-RequestedName": "renamed"]
                ).status
            case .deleteContainer:
                status = try await wopi.post(wopi.containerURL(folder.id), ["X-WOPI-Override": "DELETE_CONTAINER"])
                    .status
            case .hostCreateFile:
                await #expect(throws: ContentVeto.self) {
                    try await wopi.host.createFile(named: "import.txt", in: folder.id, for: ana)
                }
            case .hostReplaceFile:
                await #expect(throws: ContentVeto.self) {
                    try await wopi.host.createFile(
                        named: "plan.txt", in: root.id, content: ByteStream(chunks: [ByteBuffer(string: "v2")]),
                        replacing: true, for: ana)
                }
            case .hostCreateFolders:
                await #expect(throws: ContentVeto.self) {
                    try await wopi.host.createFolders(atPath: "folder/a/b", under: root.id, for: ana)
                }
            case .hostCreateDocument:
                await #expect(throws: ContentVeto.self) {
                    try await wopi.host.createDocument(extension: "docx", in: folder.id, for: ana)
                }
            case .template:
                await #expect(throws: ContentVeto.self) {
                    try await wopi.host.createDocument(fromTemplate: "memo", in: folder.id, for: ana)
                }
            }
            if let status { #expect(status == 401, "\(path) was not refused: \(status)") }
            #expect(refuse.seen.withLock { $0.count } == 1, "\(path) did not ask the guard once")
            #expect(try await Self.tree(wopi.storage, root.id) == before, "\(path) changed the tree")
        }
    }

    @Test("a policy that lets nobody see anything hides the item on each read path", arguments: ReadPath.allCases)
    func denialOnEveryReadPath(_ path: ReadPath) async throws {
        let policy = SeesNothing()
        try await TestHost.run(configuration: Self.configuration, policy: policy) { wopi in
            let file = try await wopi.seedFile("plan.txt", "secret")
            let root = try await wopi.storage.rootContainer(forUser: wopi.user)
            let ana = try #require(try await wopi.host.users.user(wopi.user))

            var status: Int?
            switch path {
            case .checkFileInfo: status = try await wopi.get(wopi.fileURL(file.id)).status
            case .getFile: status = try await wopi.get(wopi.fileURL(file.id, "/contents")).status
            case .getLock: status = try await wopi.post(wopi.fileURL(file.id), ["X-WOPI-Override": "GET_LOCK"]).status
            case .enumerateFileAncestors: status = try await wopi.get(wopi.fileURL(file.id, "/ancestry")).status
            case .getChunkedFile: status = try await Session(wopi: wopi, file: file.id).getChunkedFile([]).status
            case .getSequenceNumber:
                status = try await wopi.post(wopi.fileURL(file.id), ["X-WOPI-Override": "GET_SEQUENCE_NUMBER"]).status
            case .checkContainerInfo: status = try await wopi.get(wopi.containerURL(root.id)).status
            case .enumerateChildren: status = try await wopi.get(wopi.containerURL(root.id, "/children")).status
            case .enumerateContainerAncestors:
                status = try await wopi.get(wopi.containerURL(root.id, "/ancestry")).status
            case .fileURL:
                // The FileUrl Ana was handed while she could see the file: the policy is asked again when it is read.
                policy.hides.withLock { $0 = false }
                let info =
                    try JSONSerialization.jsonObject(
                        with: Data(try await wopi.get(wopi.fileURL(file.id)).body.readableBytesView)) as? [String: Any]
                let url = try #require(info?["FileUrl"] as? String)
                policy.hides.withLock { $0 = true }
                status = try await wopi.get(url).status
            case .getFileWopiSrc:
                status = try await wopi.post(
                    "\(wopi.wopiRoot)/ecosystem?access_token=\(wopi.token(.ecosystem))",
                    ["X-WOPI-Override": "GET_WOPI_SRC_WITH_ACCESS_TOKEN", "X-WOPI-HostNativeFileName": "plan.txt"]
                ).status
            case .hostItem:
                await #expect(throws: StorageError.self) { try await wopi.host.item(file.id, visibleTo: ana) }
            case .hostReadFile:
                await #expect(throws: StorageError.self) { try await wopi.host.readFile(file.id, for: ana) }
            case .hostContainerView:
                await #expect(throws: StorageError.self) { try await wopi.host.containerView(nil, for: ana) }
            }
            if let status { #expect(status == 404, "\(path) showed the item: \(status)") }
        }
    }

    @Test("every WOPI operation with a view-only token: what changes is refused with 401, what reads is answered")
    func everyOperationDeclaresItsRequirement() async throws {
        for (name, method, suffix, operationHeaders, isChange) in Self.operations {
            try await TestHost.run(configuration: Self.configuration) { wopi in
                let file = try await wopi.seedFile("plan.txt", "v1")
                let root = try await wopi.storage.rootContainer(forUser: wopi.user)
                let before = try await Self.tree(wopi.storage, root.id)
                let isContainer = suffix.hasPrefix("container")
                let resource: AccessToken.Resource = isContainer ? .container(root.id) : .file(file.id)
                let token = wopi.token(resource, permission: .view)
                let path = String(suffix.drop { $0 != "/" })
                let url =
                    isContainer
                    ? wopi.containerURL(root.id, path, token: token)
                    : wopi.fileURL(file.id, path, token: token)
                let headers = ["X-WOPI-Lock": "L", "X-WOPI-SuggestedTarget": ".txt", "X-WOPI-RequestedName": "n"]
                    .merging(operationHeaders) { $1 }
                let reply = try await wopi.send(method, url, headers: headers, bodyBuffer: ByteBuffer(string: "v2"))
                if isChange {
                    #expect(reply.status == 401, "\(name) with a view-only token: \(reply.status)")
                    #expect(try await Self.tree(wopi.storage, root.id) == before, "\(name) changed the tree")
                } else {
                    #expect(reply.status != 401, "\(name) with a view-only token was refused")
                }
            }
        }
    }

    /// Every WOPI operation the host routes, as a request: its name, method, endpoint, headers, and whether it
    /// changes anything (and so needs more than a view-only token).
    static let operations: [(String, HTTPMethod, String, [String: String], Bool)] = [
        ("CheckFileInfo", .GET, "file", [:], false),
        ("GetFile", .GET, "file/contents", [:], false),
        ("PutFile", .POST, "file/contents", ["X-WOPI-Override": "PUT"], true),
        ("PutChunkedFile", .POST, "file/contents", ["X-WOPI-Override": "PUT_CHUNKED_FILE"], true),
        ("Lock", .POST, "file", ["X-WOPI-Override": "LOCK"], true),
        ("UnlockAndRelock", .POST, "file", ["X-WOPI-Override": "LOCK", "X-WOPI-OldLock": "K"], true),
        ("RefreshLock", .POST, "file", ["X-WOPI-Override": "REFRESH_LOCK"], true),
        ("Unlock", .POST, "file", ["X-WOPI-Override": "UNLOCK"], true),
        ("GetLock", .POST, "file", ["X-WOPI-Override": "GET_LOCK"], false),
        ("PutRelativeFile", .POST, "file", ["X-WOPI-Override": "PUT_RELATIVE"], true),
        ("RenameFile", .POST, "file", ["X-WOPI-Override": "RENAME_FILE"], true),
        ("DeleteFile", .POST, "file", ["X-WOPI-Override": "DELETE"], true),
        ("PutUserInfo", .POST, "file", ["X-WOPI-Override": "PUT_USER_INFO"], false),
        ("GetShareUrl", .POST, "file", ["X-WOPI-Override": "GET_SHARE_URL"], true),
        ("AddActivities", .POST, "file", ["X-WOPI-Override": "ADD_ACTIVITIES"], false),
        ("GetCoauthLock", .POST, "file", ["X-WOPI-Override": "GET_COAUTH_LOCK"], true),
        ("RefreshCoauthLock", .POST, "file", ["X-WOPI-Override": "REFRESH_COAUTH_LOCK"], true),
        ("UnlockCoauthLock", .POST, "file", ["X-WOPI-Override": "UNLOCK_COAUTH_LOCK"], true),
        ("GetCoauthTable", .POST, "file", ["X-WOPI-Override": "GET_COAUTH_TABLE"], false),
        ("GetChunkedFile", .POST, "file", ["X-WOPI-Override": "GET_CHUNKED_FILE"], false),
        ("GetChunks", .POST, "file", ["X-WOPI-Override": "GET_CHUNKS"], false),
        ("GetSequenceNumber", .POST, "file", ["X-WOPI-Override": "GET_SEQUENCE_NUMBER"], false),
        ("CreateUploadSession", .POST, "file", ["X-WOPI-Override": "CREATE_UPLOAD_SESSION"], true),
        ("UpdateUploadSession", .POST, "file", ["X-WOPI-Override": "UPDATE_UPLOAD_SESSION"], true),
        ("EnumerateAncestors (file)", .GET, "file/ancestry", [:], false),
        ("GetEcosystem (file)", .GET, "file/ecosystem_pointer", [:], false),
        ("CheckContainerInfo", .GET, "container", [:], false),
        ("CreateChildContainer", .POST, "container", ["X-WOPI-Override": "CREATE_CHILD_CONTAINER"], true),
        ("CreateChildFile", .POST, "container", ["X-WOPI-Override": "CREATE_CHILD_FILE"], true),
        ("DeleteContainer", .POST, "container", ["X-WOPI-Override": "DELETE_CONTAINER"], true),
        ("RenameContainer", .POST, "container", ["X-WOPI-Override": "RENAME_CONTAINER"], true),
        ("GetShareUrl (container)", .POST, "container", ["X-WOPI-Override": "GET_SHARE_URL"], true),
        ("EnumerateChildren", .GET, "container/children", [:], false),
        ("EnumerateAncestors (container)", .GET, "container/ancestry", [:], false),
        ("GetEcosystem (container)", .GET, "container/ecosystem_pointer", [:], false),
    ]

    @Test("/new asks the change guards: a vetoed empty document is not created")
    func newDocumentPageAsksTheGuards() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var stores = try DeploymentStores.fileSystem(directory: directory.url)
        let ana = WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil)
        stores.users = InMemoryUserDirectory([ana])
        var configuration = WOPIDeployment.Configuration()
        configuration.pages = PlainPages()
        let refuse = RefuseEverything()
        let deployment = try await WOPIDeployment(
            stores: stores, configuration: configuration, changeGuards: [refuse])
        let pages = try #require(deployment.pages)
        let root = try await stores.storage.rootContainer(forUser: "ana")
        let cookie = String(try await pages.sessions.cookie(for: ana, secure: false).prefix { $0 != ";" })

        for type in ["docx", "xlsx"] {
            var fields = HTTPFields()
            fields[.cookie] = cookie
            fields[.contentType] = "application/x-www-form-urlencoded"
            let request = WOPIRequest(
                head: HTTPRequest(
                    method: .post, scheme: "http", authority: "wopi.test", path: "/new", headerFields: fields),
                body: ByteStream(chunks: [ByteBuffer(string: "container=\(root.id)&type=\(type)")]))
            let response = await pages.handle(request)
            #expect(response.status == .unauthorized, "/new of a \(type): \(response.status)")
        }
        #expect(try await stores.storage.children(of: root.id).isEmpty, "/new created a file past the veto")
        #expect(refuse.seen.withLock { $0 } == [.createChildren, .createChildren])
    }

    /// The host pages as plain text: enough for a test that reads statuses.
    struct PlainPages: HostPageRenderer {
        func signIn(_ page: SignInPage) -> String { "sign in" }
        func files(_ page: FileListPage) -> String { "files" }
        func frame(_ page: EditorFramePage) -> String { "frame" }
        func versions(_ page: VersionListPage) -> String { "versions" }
        var frameScript: String { "" }
        func message(title: String, _ text: String) -> String { "\(title): \(text)" }
    }

    /// Every item below `container`, with each file's version: what a refused change must leave as it was.
    static func tree(_ storage: any StorageBackend, _ container: ItemID) async throws -> [String] {
        var lines: [String] = []
        for child in try await storage.children(of: container) {
            switch child {
            case .file(let file): lines.append("\(file.name) \(file.version) \(file.size)")
            case .container(let folder):
                lines.append("\(folder.name)/")
                lines += try await tree(storage, folder.id).map { "\(folder.name)/\($0)" }
            }
        }
        return lines.sorted()
    }
}
