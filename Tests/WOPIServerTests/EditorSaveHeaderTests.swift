import Foundation
import HTTPTypes
import Synchronization
import Testing
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage

/// Collabora Online's save headers under both prefixes: `X-COOL-WOPI-` (Collabora today) and `X-LOOL-WOPI-`
/// (ONLYOFFICE, Collabora in legacy mode) mean exactly the same, each header on its own.
@Suite struct EditorSaveHeaderTests {
    /// Remembers what each PutFile said.
    final class Recorder: AccessPolicy, ChangeGuard {
        let saves = Mutex<[PutFileDetails]>([])
        func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
            item.ownerID == user.id ? .owner : .none
        }
        func sharedItems(with user: WOPIUser) async throws -> [StorageItem] { [] }
        func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
            if case .putFile(_, let details) = change { saves.withLock { $0.append(details) } }
        }
    }

    static let prefixes = CollaboraHeader.prefixes

    @Test(
        "IsModifiedByUser, IsAutosave and IsExitSave reach the policy, each alone, true and false", arguments: prefixes)
    func flags(_ prefix: String) async throws {
        let recorder = Recorder()
        let host = TestHost(policy: recorder, changeGuards: [recorder])
        let file = try await host.seedFile("a.docx", "v1")
        #expect(await host.send(.post, file.id, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"]).status == .ok)
        let read: [(String, KeyPath<PutFileDetails, Bool?>)] = [
            ("IsModifiedByUser", \.isModifiedByUser), ("IsAutosave", \.isAutosave), ("IsExitSave", \.isExitSave),
        ]
        for (name, field) in read {
            for value in ["true", "False"] {
                let saved = await host.send(
                    .post, file.id, "/contents", ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", prefix + name: value],
                    body: "x")
                #expect(saved.status == .ok, "\(prefix)\(name)")
                let details = try #require(recorder.saves.withLock { $0.last })
                #expect(details[keyPath: field] == (value == "true"), "\(prefix)\(name): \(value)")
                for (other, otherField) in read where other != name {
                    #expect(details[keyPath: otherField] == nil, "\(prefix)\(name) says nothing of \(other)")
                }
                #expect(saved.json["LastModifiedTime"] is String, "\(prefix)\(name): Collabora's PutFile answer")
            }
        }
    }

    @Test(
        "Timestamp: a stale one gets 409 COOLStatusCode 1010 and changes nothing; the current one saves",
        arguments: prefixes)
    func timestamp(_ prefix: String) async throws {
        let host = TestHost()
        let file = try await host.seedFile("a.docx", "v1")
        #expect(await host.send(.post, file.id, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"]).status == .ok)
        let stale = await host.send(
            .post, file.id, "/contents",
            ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", prefix + "Timestamp": "2001-01-01T00:00:00.0000000Z"],
            body: "new")
        #expect(stale.status == .conflict)
        #expect(stale.json["COOLStatusCode"] as? Int == 1010)
        #expect(try await host.content(file.id) == "v1")
        let current = WOPIJSON.timestamp(file.lastModified)
        let fresh = await host.send(
            .post, file.id, "/contents", ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", prefix + "Timestamp": current],
            body: "new")
        #expect(fresh.status == .ok)
        #expect(try await host.content(file.id) == "new")
        let saved = try await host.storage.file(file.id)
        #expect(fresh.json["LastModifiedTime"] as? String == WOPIJSON.timestamp(saved.lastModified))
    }

    @Test("both prefixes at once: the X-COOL-WOPI- value wins")
    func coolWins() async throws {
        let recorder = Recorder()
        let host = TestHost(policy: recorder, changeGuards: [recorder])
        let file = try await host.seedFile("a.docx", "v1")
        #expect(await host.send(.post, file.id, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"]).status == .ok)
        let saved = await host.send(
            .post, file.id, "/contents",
            [
                "X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", "X-COOL-WOPI-IsAutosave": "true",
                "X-LOOL-WOPI-IsAutosave": "false",
            ],
            body: "x")
        #expect(saved.status == .ok)
        #expect(recorder.saves.withLock { $0.last?.isAutosave } == true)
    }

    @Test("no Collabora header: no JSON answer, no flags")
    func otherClients() async throws {
        let recorder = Recorder()
        let host = TestHost(policy: recorder, changeGuards: [recorder])
        let file = try await host.seedFile("a.docx", "v1")
        #expect(await host.send(.post, file.id, "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"]).status == .ok)
        let saved = await host.send(
            .post, file.id, "/contents", ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", "X-WOPI-Editors": "ana, bob"],
            body: "x")
        #expect(saved.status == .ok)
        guard case .empty = saved.body else {
            Issue.record("a PutFile without Collabora's headers has a body")
            return
        }
        let details = try #require(recorder.saves.withLock { $0.last })
        #expect(details.editors == ["ana", "bob"])
        #expect(details.isAutosave == nil && details.isExitSave == nil && details.isModifiedByUser == nil)
    }
}
