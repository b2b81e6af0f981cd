import Foundation
import HTTPTypes
import NIOCore
import Testing
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Versions through the host's door (`WOPIHost+Versions.swift`, Docs/versions.md): who saved each and how, who may
/// read, restore, keep and delete them, a restore under an editor's WOPI lock, and a backend without versions.
@Suite struct HostVersionsTests {
    /// Ana owns every file; Bob may view it; Carol sees nothing.
    struct BobViews: AccessPolicy {
        func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
            item.ownerID == user.id ? .owner : user.id == "bob" ? .view : .none
        }
        func sharedItems(with user: WOPIUser) async throws -> [StorageItem] { [] }
    }

    static let ana = WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil)
    static let bob = WOPIUser(id: "bob", signInName: "bob@example.com", displayName: "Bob", passwordHash: nil)
    static let carol = WOPIUser(id: "carol", signInName: "carol@example.com", displayName: "Carol", passwordHash: nil)

    /// A file whose first version is `v1` and whose current one is `v2`, saved by Ana's PutFile under `lock` (which
    /// stays), as an editor autosaves.
    static func savedTwice(_ host: TestHost, lock: String = "editor-lock") async throws -> FileMetadata {
        let file = try await host.seedFile("a.docx", "v1")
        let locked = await host.send(.post, file.id, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": lock])
        try #require(locked.status == .ok)
        let saved = await host.send(
            .post, file.id, "/contents",
            ["X-WOPI-Override": "PUT", "X-WOPI-Lock": lock, "X-COOL-WOPI-IsAutosave": "true"], body: "v2")
        try #require(saved.status == .ok)
        return try await host.storage.file(file.id)
    }

    static func text(_ content: FileContent) async throws -> String {
        String(buffer: try await content.body.collect(upTo: 1 << 20))
    }

    static func text(_ response: WOPIResponse) async throws -> String? {
        guard case .stream(let body) = response.body else { return nil }
        return String(buffer: try await body.collect(upTo: 1 << 20))
    }

    @Test("each version records who saved it and how; any reader lists and reads them, others find no file")
    func versionsRecordTheSave() async throws {
        let host = TestHost(policy: BobViews())
        let file = try await Self.savedTwice(host)
        let versions = try await host.host.versions(of: file.id, for: Self.bob)
        #expect(versions.count == 2)
        let current = try #require(versions.first)
        #expect(current.isCurrent && current.id == file.version)
        #expect(current.save == SaveContext(userID: "ana", path: .putFile, isAutosave: true))
        #expect(versions.last?.save.path == .unknown, "seeded outside the host")
        let first = try #require(versions.last)
        #expect(try await Self.text(try await host.host.readVersion(first.id, of: file.id, for: Self.bob)) == "v1")
        let part = try await host.host.readVersion(current.id, of: file.id, range: 1..<2, for: Self.bob)
        #expect(try await Self.text(part) == "2")
        await #expect(throws: StorageError.self) { try await host.host.versions(of: file.id, for: Self.carol) }
        await #expect(throws: StorageError.self) {
            try await host.host.readVersion(first.id, of: file.id, for: Self.carol)
        }
    }

    @Test("a restore under an editor's lock is a 409 naming it, unless the page of an open editing session asks")
    func restoreUnderALock() async throws {
        let audit = InMemoryAuditLog()
        let host = TestHost(audit: audit)
        let file = try await Self.savedTwice(host)
        let first = try #require(try await host.host.versions(of: file.id, for: Self.ana).last)

        for session in [nil, "ana:never-opened"] {
            do {
                _ = try await host.host.restoreVersion(first.id, of: file.id, for: Self.ana, editingSession: session)
                Issue.record("restored under the lock with session \(session ?? "none")")
            } catch let error as WOPIHTTPError {
                #expect(error.status == .conflict && error.response.headers[.wopiLock] == "editor-lock")
            }
        }
        #expect(try await host.content(file.id) == "v2")

        await host.host.editingSessionOpened(
            file: file.id, session: "ana:page", until: host.clock.date.addingTimeInterval(600))
        let restored = try await host.host.restoreVersion(
            first.id, of: file.id, for: Self.ana, editingSession: "ana:page")
        #expect(try await host.content(file.id) == "v1")
        let versions = try await host.host.versions(of: file.id, for: Self.ana)
        #expect(versions.count == 3 && versions.first?.id == restored.version)
        #expect(versions.first?.save == SaveContext(userID: "ana", path: .restore))
        let lock = await host.send(.post, file.id, "", ["X-WOPI-Override": "GET_LOCK"])
        #expect(lock.headers[.wopiLock] == "editor-lock", "the lock stays the editor's")
        let event = try #require(audit.events(matching: AuditQuery()).first { $0.action == .versionRestore })
        #expect(event.userID == "ana" && event.itemID == file.id.rawValue)
        #expect(
            event.details == ["version": first.id, "newVersion": restored.version, "underEditorLock": "true"])

        // The session lapses with its token, before the lock does: its page no longer passes the lock.
        host.clock.advance(by: 601)
        await #expect(throws: WOPIHTTPError.self) {
            try await host.host.restoreVersion(first.id, of: file.id, for: Self.ana, editingSession: "ana:page")
        }
    }

    @Test("restore, keep and delete need write access; the current version cannot be deleted")
    func changesNeedWriteAccess() async throws {
        let audit = InMemoryAuditLog()
        let host = TestHost(policy: BobViews(), audit: audit)
        let file = try await Self.savedTwice(host)
        _ = await host.send(.post, file.id, "", ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "editor-lock"])
        let versions = try await host.host.versions(of: file.id, for: Self.ana)
        let (current, first) = (try #require(versions.first), try #require(versions.last))

        for user in [Self.bob, Self.carol] {
            await #expect(throws: (any Error).self, "\(user.id) restores") {
                try await host.host.restoreVersion(first.id, of: file.id, for: user)
            }
            await #expect(throws: (any Error).self, "\(user.id) keeps") {
                try await host.host.keepVersion(first.id, of: file.id, for: user)
            }
            await #expect(throws: (any Error).self, "\(user.id) deletes") {
                try await host.host.deleteVersion(first.id, of: file.id, for: user)
            }
        }
        #expect(try await host.host.versions(of: file.id, for: Self.ana) == versions, "nothing changed")
        #expect(audit.events(matching: AuditQuery()).allSatisfy { $0.action != .versionDelete })

        #expect(try await host.host.keepVersion(first.id, of: file.id, for: Self.ana).isKept)
        await #expect(throws: StorageError.self) {
            try await host.host.deleteVersion(current.id, of: file.id, for: Self.ana)
        }
        try await host.host.deleteVersion(first.id, of: file.id, for: Self.ana)
        #expect(try await host.host.versions(of: file.id, for: Self.ana).map(\.id) == [current.id])
        let deleted = try #require(audit.events(matching: AuditQuery()).first { $0.action == .versionDelete })
        #expect(deleted.details == ["version": first.id])
    }

    @Test("a version view's ID names the file and version, and no other ID decodes as one")
    func versionViewIDs() throws {
        let file = try #require(ItemID(rawValue: "fojophqnoogayn5knw4h5ttuf5"))
        let view = VersionView(file: file, version: "v12")
        let id = try #require(view.id)
        #expect(id.rawValue.hasPrefix("vv_") && VersionView(id: id) == view)
        #expect(VersionView(id: file) == nil)
        for raw in [
            "vv_", "vv_!!", "vv_" + Base64URL.encode(Array("no-line-feed".utf8)),
            "vv_" + Base64URL.encode(Array("a/b\nv1".utf8)), "vv_" + Base64URL.encode(Array("abc\n".utf8)),
        ] {
            #expect(ItemID(rawValue: raw).flatMap(VersionView.init(id:)) == nil, "\(raw)")
        }
        #expect(VersionView(file: file, version: String(repeating: "9", count: 100)).id == nil, "too long for an ID")
    }

    @Test("a version view answers CheckFileInfo and GetFile of the version, read-only, and refuses every change")
    func versionViewIsReadOnly() async throws {
        let host = TestHost(policy: BobViews())
        let file = try await Self.savedTwice(host)
        _ = await host.send(.post, file.id, "", ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "editor-lock"])
        let first = try #require(try await host.host.versions(of: file.id, for: Self.ana).last)
        let view = try #require(VersionView(file: file.id, version: first.id).id)

        let info = await host.send(.get, view)
        #expect(info.status == .ok)
        #expect(info.json["Version"] as? String == first.id && info.json["Size"] as? Int == 2)
        #expect(info.json["ReadOnly"] as? Bool == true && info.json["UserCanWrite"] as? Bool == false)
        #expect(info.json["SupportsLocks"] as? Bool == false && info.json["SupportsUpdate"] as? Bool == false)
        let content = await host.send(.get, view, "/contents", user: "bob")
        #expect(content.status == .ok && content.headers[.wopiItemVersion] == first.id)
        #expect(try await Self.text(content) == "v1")
        let part = await host.send(.get, view, "/contents", ["Range": "bytes=1-1"])
        #expect(part.status == .partialContent)
        #expect(try await Self.text(part) == "1")

        for (suffix, headers) in [
            ("/contents", ["X-WOPI-Override": "PUT"]), ("", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "l"]),
            ("", ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "b"]), ("", ["X-WOPI-Override": "DELETE"]),
            ("", ["X-WOPI-Override": "PUT_RELATIVE", "X-WOPI-SuggestedTarget": ".docx"]),
        ] {
            let refused = await host.send(.post, view, suffix, headers, body: "over")
            #expect(refused.status == .unauthorized, "\(headers): \(refused.status)")
        }
        #expect(try await host.content(file.id) == "v2", "nothing changed")
        #expect(try await host.host.versions(of: file.id, for: Self.ana).count == 2)
        #expect(await host.send(.get, view, user: "carol").status == .notFound, "Carol may not see the file")
        // A secure viewer's token reads no version outside the editor either.
        let secure = host.token(.file(view), user: "bob", permission: .secureView)
        let refused = await host.host.handle(TestHost.getRequest("/wopi/files/\(view)/contents?access_token=\(secure)"))
        #expect(refused.status == .unauthorized)
        // A token for the file is not one for its version, nor the other way round.
        let fileToken = host.token(file.id)
        let wrong = await host.host.handle(
            TestHost.getRequest("/wopi/files/\(view)?access_token=\(fileToken)"))
        #expect(wrong.status == .notFound)
    }

    @Test("a backend that keeps no versions answers 501 with what to do")
    func noVersionsIs501() async throws {
        // A wrapper backend that is not a VersionedStorage keeps none, whatever it wraps.
        let host = TestHost(storage: CountingStorage(InMemoryStorage()))
        let file = try await host.seedFile("a.docx", "v1")
        do {
            _ = try await host.host.versions(of: file.id, for: Self.ana)
            Issue.record("a backend without versions listed some")
        } catch let error as WOPIHTTPError {
            #expect(error.status == .notImplemented)
            #expect(error.pageMessage?.text.isEmpty == false)
        }
    }
}
