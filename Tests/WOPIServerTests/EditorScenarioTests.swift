import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Two editors over real HTTP with proof keys on, each as its source code behaves (Docs/office-for-the-web.md):
/// Collabora Online (its own lock ID, Lock again every 900 s, `X-COOL-WOPI-` headers, `TemplateSource` and
/// `FileUrl` downloads) and ONLYOFFICE (the document ID as the one lock ID, RefreshLock every 10 minutes,
/// `X-LOOL-WOPI-` headers and `X-WOPI-Editors`, `TemplateSource` and `FileUrl` downloaded unsigned). Ana and Bob
/// co-edit a document made from a template; the saved bytes, who saved with which flags, and the lock are checked
/// after each step.
@Suite struct EditorScenarioTests {
    /// Ana's files are shared with Bob for editing; every save is recorded with its user and details.
    final class CoEditing: AccessPolicy, ChangeGuard {
        let saves = Mutex<[(user: String, details: PutFileDetails)]>([])
        func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
            item.ownerID == user.id ? .owner : user.id == "bob" ? .edit : .none
        }
        func sharedItems(with user: WOPIUser) async throws -> [StorageItem] { [] }
        func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
            if case .putFile(_, let details) = change { saves.withLock { $0.append((user.id, details)) } }
        }
    }

    /// A WOPI client calling the host: signs what the editor signs, on the test's clock.
    struct Editor {
        let wopi: TestHost
        let signer: ProofSigner
        let clock: TestClock
        let file: ItemID

        func token(_ user: String) -> String { wopi.token(.file(file), user: user, lifetime: 10 * 3600) }

        /// A WOPI call on the file (`suffix` `/contents`…) with `user`'s token, signed.
        func call(
            _ method: HTTPMethod, _ suffix: String = "", user: String, _ headers: [String: String] = [:],
            body: String? = nil
        ) async throws -> HTTP.Reply {
            let token = token(user)
            let url = "\(wopi.wopiRoot)/files/\(file)\(suffix)?access_token=\(token)"
            return try await get(url, token: token, headers, method: method, body: body)
        }

        /// A URL the host handed out, signed when `token` is given (the client signs what carries an access token).
        func get(
            _ url: String, token: String?, _ headers: [String: String] = [:], method: HTTPMethod = .GET,
            body: String? = nil
        ) async throws -> HTTP.Reply {
            var headers = headers
            if let token {
                headers.merge(try signer.headers(url: url, token: token, at: clock.date)) { $1 }
            }
            return try await wopi.send(method, url, headers: headers, body: body)
        }

        func lock() async throws -> String? {
            try await call(.POST, user: "ana", ["X-WOPI-Override": "GET_LOCK"]).header("X-WOPI-Lock")
        }

        func content() async throws -> String {
            String(buffer: try await wopi.host.storage.readFile(file).body.collect(upTo: 1 << 20))
        }
    }

    static let letter = Template(id: "letter", name: "Letter.dotx", documentExtension: "docx")

    /// A wopi host with proof keys, FileUrl and a template store, and a document Ana made from the template.
    static func withEditor(_ body: @Sendable (Editor, CoEditing) async throws -> Void) async throws {
        let signer = try ProofSigner()
        let clock = TestClock()
        let discovery = ChangingDiscovery(try TestDiscoveryXML.make(clientURL: "https://editor.test", current: signer))
        var configuration = WOPIHostConfiguration()
        configuration.proofKeySource = DiscoveryClient(source: discovery.source)
        configuration.fileURLs = FileURLs(tokenKey: .init(size: .bits256))
        configuration.templates = InMemoryTemplateStore([(letter, Array("LETTERHEAD".utf8))])
        let policy = CoEditing()
        try await TestHost.run(
            configuration: configuration, policy: policy, changeGuards: [policy], clock: clock, overSocket: true
        ) { wopi in
            let root = try await wopi.host.storage.rootContainer(forUser: "ana")
            let ana = try #require(try await wopi.host.users.user("ana"))
            let file = try await wopi.host.createDocument(fromTemplate: "letter", named: "Offer", in: root.id, for: ana)
            try await body(Editor(wopi: wopi, signer: signer, clock: clock, file: file.id), policy)
        }
    }

    @Test("Collabora Online: template, FileUrl, its lock re-sent every 900 s by either co-editor, timestamped saves")
    func collabora() async throws {
        try await Self.withEditor { editor, policy in
            let info = try await editor.call(.GET, user: "ana").json()
            let source = try #require(info["TemplateSource"] as? String)
            // Collabora downloads TemplateSource with the proof of its access token.
            let token = try #require(
                URLComponents(string: source)?.queryItems?.first { $0.name == "access_token" }?.value)
            #expect(try await editor.get(source, token: token).text == "LETTERHEAD")
            #expect(
                try await editor.get(source, token: nil, ["X-WOPI-Proof": "AAAA", "X-WOPI-TimeStamp": "1"]).status
                    == 500, "a bad proof is refused")

            let lock = ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "cool-9c1e"]
            #expect(try await editor.call(.POST, user: "ana", lock).status == 200)
            // The first save: the template as the editor loaded it, then an autosave.
            var stamp = try #require(info["LastModifiedTime"] as? String)
            let first = try await editor.call(
                .POST, "/contents", user: "ana",
                [
                    "X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool-9c1e", "X-COOL-WOPI-Timestamp": stamp,
                    "X-COOL-WOPI-IsModifiedByUser": "false", "X-COOL-WOPI-IsAutosave": "true",
                ], body: "LETTERHEAD")
            #expect(first.status == 200)
            stamp = try #require(try first.json()["LastModifiedTime"] as? String)
            #expect(try await editor.content() == "LETTERHEAD")
            #expect(
                try await editor.call(.GET, user: "ana").json()["TemplateSource"] == nil, "the first save forgets it")

            // Bob joins; Collabora sends Lock again every 900 s, under whichever session's token.
            for round in 1...4 {
                editor.clock.advance(by: 900)
                let user = round.isMultiple(of: 2) ? "ana" : "bob"
                #expect(try await editor.call(.POST, user: user, lock).status == 200, "re-Lock \(round)")
                #expect(try await editor.lock() == "cool-9c1e")
            }
            let bobSave = try await editor.call(
                .POST, "/contents", user: "bob",
                [
                    "X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool-9c1e", "X-COOL-WOPI-Timestamp": stamp,
                    "X-COOL-WOPI-IsModifiedByUser": "true", "X-COOL-WOPI-IsAutosave": "false",
                ], body: "LETTERHEAD, Bob")
            #expect(bobSave.status == 200)
            #expect(try await editor.content() == "LETTERHEAD, Bob")
            let stale = try await editor.call(
                .POST, "/contents", user: "ana",
                ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool-9c1e", "X-COOL-WOPI-Timestamp": stamp], body: "stale")
            #expect(stale.status == 409)
            #expect(try stale.json()["COOLStatusCode"] as? Int == 1010)
            #expect(try await editor.content() == "LETTERHEAD, Bob")

            // FileUrl: tried before /contents, unsigned and without a token, a range too.
            let fileURL = try #require(try await editor.call(.GET, user: "ana").json()["FileUrl"] as? String)
            #expect(try await editor.get(fileURL, token: nil).text == "LETTERHEAD, Bob")
            #expect(try await editor.get(fileURL, token: nil, ["Range": "bytes=12-"]).text == "Bob")

            // The exit save after the last user left, then Unlock.
            stamp = try #require(try bobSave.json()["LastModifiedTime"] as? String)
            let exit = try await editor.call(
                .POST, "/contents", user: "bob",
                [
                    "X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool-9c1e", "X-COOL-WOPI-Timestamp": stamp,
                    "X-COOL-WOPI-IsExitSave": "true",
                ], body: "LETTERHEAD, Bob.")
            #expect(exit.status == 200)
            #expect(
                try await editor.call(.POST, user: "bob", ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "cool-9c1e"])
                    .status == 200)
            #expect(try await editor.lock() == "")
            #expect(try await editor.content() == "LETTERHEAD, Bob.")
            let saves = policy.saves.withLock { $0 }
            #expect(saves.map(\.user) == ["ana", "bob", "bob"])
            #expect(saves.map(\.details.isAutosave) == [true, false, nil])
            #expect(saves.map(\.details.isExitSave) == [nil, nil, true])
        }
    }

    @Test(
        "ONLYOFFICE: template and FileUrl unsigned, the document ID as lock, RefreshLock every 10 minutes, X-LOOL headers"
    )
    func onlyoffice() async throws {
        try await Self.withEditor { editor, policy in
            let info = try await editor.call(.GET, user: "ana").json()
            let source = try #require(info["TemplateSource"] as? String)
            #expect(
                try await editor.get(source, token: nil, ["X-WOPI-MaxExpectedSize": "104857600"]).text == "LETTERHEAD",
                "unsigned, as wopiUtils.js fetches it")

            let documentID = "\(editor.file)"
            #expect(
                try await editor.call(.POST, user: "ana", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": documentID]).status
                    == 200)
            #expect(try await editor.call(.GET, user: "bob").json()["UserCanWrite"] as? Bool == true)
            for _ in 1...6 {
                editor.clock.advance(by: 600)
                let refresh = try await editor.call(
                    .POST, user: "bob", ["X-WOPI-Override": "REFRESH_LOCK", "X-WOPI-Lock": documentID])
                #expect(refresh.status == 200)
            }
            #expect(try await editor.lock() == documentID, "an hour on, the one lock holds")
            let stamp = try #require(info["LastModifiedTime"] as? String)
            let save = try await editor.call(
                .POST, "/contents", user: "bob",
                [
                    "X-WOPI-Override": "PUT", "X-WOPI-Lock": documentID, "X-WOPI-Editors": "ana,bob",
                    "X-LOOL-WOPI-IsModifiedByUser": "true", "X-LOOL-WOPI-IsAutosave": "false",
                    "X-LOOL-WOPI-IsExitSave": "true", "X-LOOL-WOPI-Timestamp": stamp,
                ], body: "LETTERHEAD, both")
            #expect(save.status == 200)
            #expect(try await editor.content() == "LETTERHEAD, both")
            #expect(try await editor.call(.GET, user: "ana").json()["TemplateSource"] == nil)

            let fileURL = try #require(try await editor.call(.GET, user: "bob").json()["FileUrl"] as? String)
            #expect(
                try await editor.get(fileURL, token: nil, ["X-WOPI-MaxExpectedSize": "104857600"]).text
                    == "LETTERHEAD, both")
            #expect(try await editor.get(fileURL, token: nil, ["X-WOPI-MaxExpectedSize": "3"]).status == 412)

            #expect(
                try await editor.call(.POST, user: "bob", ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": documentID])
                    .status == 200)
            #expect(try await editor.lock() == "")
            let saves = policy.saves.withLock { $0 }
            #expect(saves.count == 1 && saves.first?.user == "bob")
            #expect(saves.first?.details.editors == ["ana", "bob"])
            #expect(saves.first?.details.isExitSave == true && saves.first?.details.isModifiedByUser == true)
        }
    }
}
