import Crypto
import Foundation
import NIOHTTP1
import Synchronization
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// The roles (Docs/policies-and-sharing.md, "Roles"): each role's CheckFileInfo, and what an editor stand-in may do
/// with it over a socket, on a host that checks proof keys (every request signed: the editor's own) and on one that
/// does not (the same token in anyone's hands).
@Suite struct RoleTests {
    /// Bob may edit Ana's files; his token carries the role under test, so the request gets that role.
    struct BobEdits: AccessPolicy {
        func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
            item.ownerID == user.id ? .owner : user.id == "bob" ? .edit : .none
        }
    }

    /// Counts the saves that reach the door's change guards.
    final class Saves: ChangeGuard {
        let count = Mutex(0)
        func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
            if case .putFile = change { count.withLock { $0 += 1 } }
        }
    }

    /// A WOPI client calling the host for Bob, signing every request when it has a signer.
    struct StandIn {
        let wopi: TestHost
        let signer: ProofSigner?
        let file: ItemID
        let permission: Permission

        func call(
            _ method: HTTPMethod, _ suffix: String = "", _ headers: [String: String] = [:], body: String? = nil,
            signed: Bool = true
        ) async throws -> TestHTTP.Reply {
            let token = wopi.token(.file(file), user: "bob", permission: permission)
            let url = "\(wopi.wopiRoot)/files/\(file)\(suffix)?access_token=\(token)"
            var headers = headers
            if let signer, signed {
                headers.merge(try signer.headers(url: url, token: token, at: wopi.clock.date)) { $1 }
            }
            return try await wopi.send(method, url, headers: headers, body: body)
        }

        /// Lock, PutFile under the lock, GetFile: their statuses.
        func lockSaveRead() async throws -> (lock: Int, save: Int, read: Int) {
            let lock = ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L-\(permission)"]
            let locked = try await call(.POST, "", lock).status
            let saved = try await call(
                .POST, "/contents", ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L-\(permission)"],
                body: "saved as \(permission.roleName)"
            ).status
            return (locked, saved, try await call(.GET, "/contents").status)
        }
    }

    /// A host over a socket with Ana's file `Plan.docx`, checking proofs when `signed`.
    static func withHost(
        signed: Bool, _ body: @Sendable (TestHost, ProofSigner?, ItemID, Saves) async throws -> Void
    ) async throws {
        var configuration = WOPIHostConfiguration()
        configuration.fileURLs = FileURLs(tokenKey: .init(size: .bits256))
        let signer = signed ? try ProofSigner() : nil
        if let signer {
            let discovery = ChangingDiscovery(
                try TestDiscoveryXML.make(clientURL: "https://editor.test", current: signer))
            configuration.proofKeySource = DiscoveryClient(source: discovery.source)
        }
        let saves = Saves()
        try await TestHost.run(
            configuration: configuration, policy: BobEdits(), changeGuards: [saves], overSocket: true
        ) { wopi in
            let file = try await wopi.seedFile("Plan.docx", "the plan")
            try await body(wopi, signer, file.id, saves)
        }
    }

    /// What a role's CheckFileInfo says, and what its editor may do, as the table in Docs/policies-and-sharing.md
    /// has it.
    struct Expected: Sendable {
        var canWrite: Bool
        var readOnly: Bool
        var onlyComment: Bool?
        var onlyManageRedlines: Bool?
        var review: Bool
        var secure: Bool
        var statuses: (lock: Int, save: Int, read: Int)

        static func of(_ permission: Permission, signed: Bool) -> Expected {
            let throughEditor = signed && permission >= .comment
            let writes = permission == .edit || throughEditor
            let reads = permission >= .view || (signed && permission == .secureView)
            return Expected(
                canWrite: writes, readOnly: permission < .edit,
                onlyComment: permission == .comment && throughEditor ? true : nil,
                onlyManageRedlines: permission == .review && throughEditor ? true : nil,
                review: permission >= .review && writes, secure: permission == .secureView,
                statuses: (writes ? 200 : 401, writes ? 200 : 401, reads ? 200 : 401))
        }
    }

    static let roles: [Permission] = [.secureView, .view, .comment, .review, .edit]

    @Test(
        "each role's CheckFileInfo, Lock, PutFile and GetFile, from the signing editor and without proof keys",
        arguments: [true, false])
    func perRole(signed: Bool) async throws {
        try await Self.withHost(signed: signed) { wopi, signer, file, saves in
            for permission in Self.roles {
                let editor = StandIn(wopi: wopi, signer: signer, file: file, permission: permission)
                let expected = Expected.of(permission, signed: signed)
                let info = try await editor.call(.GET).json()
                let role = "\(permission.roleName), signed: \(signed)"
                #expect(info["UserCanWrite"] as? Bool == expected.canWrite, "\(role)")
                #expect(info["ReadOnly"] as? Bool == expected.readOnly, "\(role)")
                #expect(info["UserCanOnlyComment"] as? Bool == expected.onlyComment, "\(role)")
                #expect(info["UserCanOnlyManageRedlines"] as? Bool == expected.onlyManageRedlines, "\(role)")
                #expect(info["UserCanReview"] as? Bool == expected.review, "\(role)")
                #expect(info["SupportsReviewing"] as? Bool == true, "\(role)")
                #expect(info["UserCanRename"] as? Bool == (permission == .edit), "\(role)")
                #expect(
                    (info["WatermarkText"] as? String) == (expected.secure ? "Bob · bob@example.com" : nil), "\(role)")
                for key in ["DisablePrint", "HidePrintOption", "DisableExport", "HideExportOption", "DisableCopy"] {
                    #expect(info[key] as? Bool == (expected.secure ? true : nil), "\(key), \(role)")
                }
                #expect(
                    info["CopyPasteRestrictions"] as? String == (expected.secure ? "CurrentDocumentOnly" : nil),
                    "\(role)")
                #expect(
                    (info["FileUrl"] != nil) == (expected.statuses.read == 200), "FileUrl only to who may read, \(role)"
                )

                let statuses = try await editor.lockSaveRead()
                #expect(statuses.lock == expected.statuses.lock, "Lock, \(role)")
                #expect(statuses.save == expected.statuses.save, "PutFile, \(role)")
                #expect(statuses.read == expected.statuses.read, "GetFile, \(role)")
                if statuses.lock == 200 {
                    let unlock = ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "L-\(permission)"]
                    #expect(try await editor.call(.POST, "", unlock).status == 200)
                }
                // Below editor, nobody renames, deletes or creates, signed or not.
                if permission < .edit {
                    let rename = ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "Mine"]
                    #expect(try await editor.call(.POST, "", rename).status == 401, "RenameFile, \(role)")
                    #expect(try await editor.call(.POST, "", ["X-WOPI-Override": "DELETE"]).status == 401, "\(role)")
                }
            }
            #expect(saves.count.withLock { $0 } == (signed ? 3 : 1), "one save per role that may write")
            #expect(try await wopi.content(file) == "saved as editor")
        }
    }

    @Test("a commenter's token without the editor's proof writes nothing, and their editor's save is kept")
    func commenterOutsideTheEditor() async throws {
        try await Self.withHost(signed: true) { wopi, signer, file, _ in
            let commenter = StandIn(wopi: wopi, signer: signer, file: file, permission: .comment)
            let lock = ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"]
            #expect(try await commenter.call(.POST, "", lock).status == 200)
            let put = ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L"]
            let unsigned = try await commenter.call(.POST, "/contents", put, body: "replaced", signed: false)
            #expect(unsigned.status == 500, "the host refuses what the editor did not sign")
            #expect(try await wopi.content(file) == "the plan")
            #expect(try await commenter.call(.POST, "/contents", put, body: "the plan, with a comment").status == 200)
            #expect(try await wopi.content(file) == "the plan, with a comment")
        }
    }

    @Test("a secure viewer's token reads nothing without the editor; an owner keeps every right")
    func secureViewerAndOwner() async throws {
        try await Self.withHost(signed: false) { wopi, _, file, _ in
            let token = wopi.token(file, user: "bob", permission: .secureView)
            #expect(try await wopi.send(.GET, wopi.fileURL(file, "/contents", token: token)).status == 401)
            #expect(try await wopi.send(.GET, wopi.fileURL(file, token: token)).json()["FileUrl"] == nil)
            let owner = try await wopi.send(.GET, wopi.fileURL(file)).json()
            #expect(owner["UserCanWrite"] as? Bool == true && owner["ReadOnly"] as? Bool == false)
            #expect(owner["UserCanRename"] as? Bool == true && owner["UserCanReview"] as? Bool == true)
            #expect(owner["WatermarkText"] == nil && owner["UserCanOnlyComment"] == nil)
        }
    }

    @Test("a share link carries its role: a commenter's link makes its visitor a commenter")
    func roleLink() async throws {
        let shares = InMemoryShareStore()
        let storage = InMemoryStorage()
        let links = ShareLinks(tokenKey: SymmetricKey(size: .bits256), store: shares)
        var configuration = WOPIHostConfiguration()
        configuration.shareLinks = links
        let wopi = TestHost(
            storage: storage, configuration: configuration,
            policy: SharingAccessPolicy(storage: storage, shares: shares))
        let file = try await wopi.seedFile("Plan.docx")
        let url = try await links.url(
            for: .file(file), role: .comment, grantor: "ana", publicURL: "http://wopi.test", now: wopi.clock.date)
        let token = String(try #require(url.split(separator: "/").last))
        let carol = try #require(try await wopi.host.users.user("carol"))
        let redeemed = try #require(try await wopi.host.redeemShareLink(token, for: carol))
        #expect(redeemed.access.permission == .comment && !redeemed.access.canWrite)
        #expect(try await shares.shares(withGrantee: "carol").map(\.permission) == [.comment])
    }

    @Test("the order, the stable raw values tokens and stores keep, and the names")
    func levels() throws {
        #expect(Permission.allCases == [.none, .secureView, .view, .comment, .review, .edit])
        #expect(Permission.allCases.sorted() == Permission.allCases)
        #expect(Permission.allCases.map(\.rawValue) == [0, 3, 1, 4, 5, 2])
        for permission in Permission.allCases {
            #expect(Permission(named: permission.roleName) == permission)
            #expect(Permission(named: permission.description) == permission)
            let coded = try JSONDecoder().decode(Permission.self, from: JSONEncoder().encode(permission))
            #expect(coded == permission)
        }
        #expect(Permission(named: "secure-viewer") == .secureView && Permission(named: "owner") == nil)
        #expect(ItemAccess.edit.limited(to: .comment).permission == .comment)
        #expect(ItemAccess.edit.limited(to: .comment).canRename == false)
        #expect(ItemAccess(permission: .comment).canWrite == false)
        #expect(ItemAccess(permission: .comment).throughVerifiedEditor.canWrite)
        #expect(!ItemAccess(permission: .view).throughVerifiedEditor.canWrite)
        #expect(
            !ItemAccess(permission: .secureView).canRead
                && ItemAccess(permission: .secureView).throughVerifiedEditor.canRead)
    }
}
