import Foundation
import HTTPTypes
import Testing
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Locks as Collabora Online and ONLYOFFICE use them, on the host's injected clock: one lock per document for all
/// co-editors, refreshed under any co-editor's token, and what happens when the sessions end.
@Suite struct EditorLockTests {
    /// A policy under which Ana's files are shared for editing with Bob (Carol sees them too, to find them locked).
    struct CoEditing: AccessPolicy {
        func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
            item.ownerID == user.id ? .owner : .edit
        }
        func sharedItems(with user: WOPIUser) async throws -> [StorageItem] { [] }
    }

    static func lockOf(_ host: TestHost, _ file: ItemID) async -> String? {
        await host.send(.post, file, "", ["X-WOPI-Override": "GET_LOCK"]).headers[.wopiLock]
    }

    @Test("Collabora: Lock on load, the same Lock again every 900 s under either co-editor's token keeps it")
    func collaboraRelocks() async throws {
        let host = TestHost(policy: CoEditing())
        let file = try await host.seedFile("a.odt", "v1")
        let lock = ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "cool-4f1c"]
        #expect(await host.send(.post, file.id, "", user: "ana", lock).status == .ok)
        for round in 1...8 {  // two hours, far past the 30 minutes of one lock
            host.clock.advance(by: 900)
            let user = round.isMultiple(of: 2) ? "ana" : "bob"
            #expect(await host.send(.post, file.id, "", user: user, lock).status == .ok, "re-Lock \(round) by \(user)")
        }
        #expect(await Self.lockOf(host, file.id) == "cool-4f1c")
        let save = await host.send(
            .post, file.id, "/contents", user: "bob",
            ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool-4f1c", "X-COOL-WOPI-IsAutosave": "true"], body: "v2")
        #expect(save.status == .ok)
        #expect(try await host.content(file.id) == "v2")
        let other = await host.send(
            .post, file.id, "", user: "carol", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "carol"])
        #expect(other.status == .conflict && other.headers[.wopiLock] == "cool-4f1c")
        host.clock.advance(by: 29 * 60)
        #expect(await Self.lockOf(host, file.id) == "cool-4f1c", "29 minutes after the last re-Lock")
        host.clock.advance(by: 61)
        #expect(await Self.lockOf(host, file.id) == "", "30 minutes after the last re-Lock it lapsed")
    }

    @Test(
        "ONLYOFFICE: the document ID as the one lock ID; RefreshLock every 10 minutes and Unlock by another co-editor")
    func onlyofficeDocumentLock() async throws {
        let host = TestHost(policy: CoEditing())
        let file = try await host.seedFile("a.docx", "v1")
        let documentID = "\(file.id)"
        #expect(
            await host.send(.post, file.id, "", user: "ana", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": documentID])
                .status == .ok)
        #expect(
            await host.send(.post, file.id, "", user: "bob", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": documentID])
                .status == .ok, "Bob joins: the same Lock")
        for _ in 1...6 {
            host.clock.advance(by: 600)
            let refresh = await host.send(
                .post, file.id, "", user: "bob", ["X-WOPI-Override": "REFRESH_LOCK", "X-WOPI-Lock": documentID])
            #expect(refresh.status == .ok)
        }
        let save = await host.send(
            .post, file.id, "/contents", user: "bob",
            [
                "X-WOPI-Override": "PUT", "X-WOPI-Lock": documentID, "X-WOPI-Editors": "ana,bob",
                "X-LOOL-WOPI-IsModifiedByUser": "true", "X-LOOL-WOPI-IsAutosave": "false",
                "X-LOOL-WOPI-IsExitSave": "true",
            ], body: "v2")
        #expect(save.status == .ok)
        #expect(try await host.content(file.id) == "v2")
        #expect(
            await host.send(.post, file.id, "", user: "bob", ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": documentID])
                .status == .ok, "Ana left; Bob's token unlocks")
        #expect(await Self.lockOf(host, file.id) == "")
    }

    @Test(".expire: closing every session leaves the lock to its 30 minutes")
    func expireKeepsTheLock() async throws {
        let host = TestHost(policy: CoEditing())
        let file = try await host.seedFile("a.docx", "v1")
        #expect(await host.send(.post, file.id, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"]).status == .ok)
        await host.host.editingSessionOpened(file: file.id, session: "s1", until: host.clock.date + 3600)
        #expect(try await host.host.editingSessionEnded(file: file.id, session: "s1") == nil)
        host.clock.advance(by: 29 * 60)
        #expect(await Self.lockOf(host, file.id) == "L")
        host.clock.advance(by: 61)
        #expect(await Self.lockOf(host, file.id) == "")
    }

    @Test(
        ".releaseAfterClose: the last close shortens the lock to the grace; the exit save passes; a refresh restores it"
    )
    func releaseAfterClose() async throws {
        var configuration = WOPIHostConfiguration()
        configuration.endedSessionLocks = .releaseAfterClose(grace: 120)
        let host = TestHost(configuration: configuration, policy: CoEditing())
        let file = try await host.seedFile("a.docx", "v1")
        let lock = ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"]
        #expect(await host.send(.post, file.id, "", user: "ana", lock).status == .ok)
        await host.host.editingSessionOpened(file: file.id, session: "ana-1", until: host.clock.date + 3600)
        await host.host.editingSessionOpened(file: file.id, session: "bob-1", until: host.clock.date + 3600)

        #expect(try await host.host.editingSessionEnded(file: file.id, session: "ana-1") == nil, "Bob still edits")
        host.clock.advance(by: 20 * 60)
        #expect(await Self.lockOf(host, file.id) == "L")
        let shortened = try await host.host.editingSessionEnded(file: file.id, session: "bob-1")
        #expect(shortened == host.clock.date + 120)
        host.clock.advance(by: 60)
        let exitSave = await host.send(
            .post, file.id, "/contents", user: "bob",
            ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", "X-COOL-WOPI-IsExitSave": "true"], body: "final")
        #expect(exitSave.status == .ok, "the exit save after the last close still has its lock")
        host.clock.advance(by: 61)
        #expect(await Self.lockOf(host, file.id) == "", "2 minutes after the last close, not 30")
        #expect(
            await host.send(.post, file.id, "", user: "carol", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "C"]).status
                == .ok)

        // A session that was never closed lapses; a close then shortens, and a live editor's refresh restores it.
        await host.host.editingSessionOpened(file: file.id, session: "lost", until: host.clock.date + 60)
        await host.host.editingSessionOpened(file: file.id, session: "carol-1", until: host.clock.date + 3600)
        host.clock.advance(by: 61)
        #expect(try await host.host.editingSessionEnded(file: file.id, session: "carol-1") != nil)
        let refresh = await host.send(
            .post, file.id, "", user: "carol", ["X-WOPI-Override": "REFRESH_LOCK", "X-WOPI-Lock": "C"])
        #expect(refresh.status == .ok)
        host.clock.advance(by: 25 * 60)
        #expect(await Self.lockOf(host, file.id) == "C", "the refresh gave the lock its 30 minutes back")
    }
}
