import Foundation
import NIOCore
import Synchronization
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// A provider's policy that sees every change, refuses some, and otherwise follows the owner-plus-shares rules.
final class ReviewingPolicy: AccessPolicy, ChangeGuard {
    let base: SharingAccessPolicy
    let seen = Mutex<[String]>([])
    let putFiles = Mutex<[PutFileDetails]>([])

    init(base: SharingAccessPolicy) { self.base = base }

    func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
        try await base.access(of: user, to: item)
    }

    func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
        let name: String
        switch change {
        case .putFile(let file, let details):
            putFiles.withLock { $0.append(details) }
            if details.editors.contains("mallory") { throw ContentVeto.refused("Mallory may not save.") }
            if let size = details.size, size > 10 { throw ContentVeto.tooLarge("Over the 10-byte quota.") }
            name = "put \(file.name)"
        case .putRelativeFile(_, let target, _): name = "relative \(target)"
        case .rename(let item, let target): name = "rename \(item.name) to \(target)"
        case .delete(let item): name = "delete \(item.name)"
        case .create(let target, _, let isContainer): name = "create \(isContainer ? "folder" : "file") \(target)"
        case .addActivities(let file, let activities): name = "activities \(activities.count) on \(file.name)"
        }
        seen.withLock { $0.append("\(user.id): \(name)") }
        if name.contains("Forbidden") { throw ContentVeto.conflict("Nothing may be called Forbidden here.") }
    }
}

@Suite("Content hooks, AddActivities and Collabora's PutFile, through the host's routes, in-process")
struct ContentHooksTests {
    @Test("the policy sees every change with who makes it, and its veto answers clearly and changes nothing")
    func hooksSeeAndVeto() async throws {
        let fixture = SharingFixture()
        let policy = ReviewingPolicy(base: fixture.policy)
        try await TestHost.run(storage: fixture.storage, policy: policy, changeGuards: [policy]) { wopi in
            let (projects, plan, _) = try await fixture.seed()
            let bob = wopi.token(.file(plan.id), user: "bob")
            let locked = try await wopi.post(
                wopi.fileURL(plan.id, token: bob), ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"])
            #expect(locked.status == 200)
            let put = try await wopi.post(
                wopi.fileURL(plan.id, "/contents", token: bob),
                ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", "X-WOPI-Editors": "bob, ana"], body: "v2")
            #expect(put.status == 200)
            let vetoed = try await wopi.post(
                wopi.fileURL(plan.id, "/contents", token: bob),
                ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", "X-WOPI-Editors": "mallory"],
                body: "v3")
            #expect(vetoed.status == 401 && vetoed.header("X-WOPI-ServerError") == "Mallory may not save.")
            let tooLarge = try await wopi.post(
                wopi.fileURL(plan.id, "/contents", token: bob), ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L"],
                body: "far too long")
            #expect(tooLarge.status == 413)
            #expect(String(buffer: try await fixture.storage.readFile(plan.id).body.collect(upTo: 100)) == "v2")
            #expect(policy.putFiles.withLock { $0.first?.editors } == ["bob", "ana"])
            let unlocked = try await wopi.post(
                wopi.fileURL(plan.id, token: bob), ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "L"])
            #expect(unlocked.status == 200)

            let folder = wopi.token(.container(projects.id), user: "bob")
            let forbidden = try await wopi.post(
                wopi.containerURL(projects.id, token: folder),
                ["X-WOPI-Override": "CREATE_CHILD_FILE", "X-WOPI-RelativeTarget": "Forbidden.docx"])
            #expect(forbidden.status == 409 && forbidden.header("X-WOPI-ServerError")?.contains("Forbidden") == true)
            #expect(try await fixture.storage.children(of: projects.id).map(\.name) == ["Plan.docx"])
            let rename = try await wopi.post(
                wopi.fileURL(plan.id, token: bob),
                ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "Forbidden"])
            #expect(rename.status == 409)
            #expect(try await fixture.storage.file(plan.id).name == "Plan.docx")
            let relative = try await wopi.post(
                wopi.fileURL(plan.id, token: bob),
                ["X-WOPI-Override": "PUT_RELATIVE", "X-WOPI-SuggestedTarget": "Copy.docx"], body: "c")
            #expect(relative.status == 200)
            let created = try await wopi.post(
                wopi.containerURL(projects.id, token: folder),
                ["X-WOPI-Override": "CREATE_CHILD_CONTAINER", "X-WOPI-SuggestedTarget": "Drafts"])
            #expect(created.status == 200)
            let copy = try #require(try await fixture.storage.child(named: "Copy.docx", in: projects.id))
            let delete = try await wopi.post(
                wopi.fileURL(copy.id, token: wopi.token(.file(copy.id), user: "bob")), ["X-WOPI-Override": "DELETE"])
            #expect(delete.status == 200)
            let seen = policy.seen.withLock { $0 }
            #expect(
                seen == [
                    "bob: put Plan.docx", "bob: create file Forbidden.docx", "bob: rename Plan.docx to Forbidden.docx",
                    "bob: relative Copy.docx", "bob: create folder Drafts", "bob: delete Copy.docx",
                ])
        }
    }

    @Test("AddActivities stores comments and mentions, answers 3 for other types, and reports a veto per activity")
    func addActivities() async throws {
        let fixture = SharingFixture()
        try await TestHost.run(storage: fixture.storage, policy: fixture.policy) { wopi in
            let (_, plan, _) = try await fixture.seed()
            let info = try decode(CheckFileInfo.self, try await wopi.get(wopi.fileURL(plan.id)))
            #expect(info.supportsAddActivities == true)
            let body = """
                { "Activities": [
                  { "Type": "comment", "Id": "a-1", "Created": "2017-02-15T13:47:13000000Z",
                    "Data": { "ContentId": "cid123", "ContentAction": "created", "Bonus": 1 },
                    "People": [ { "Name": "Bob", "Id": "bob", "Provider": "wopikit", "Mentioned": true } ] },
                  { "Type": "unsupported", "Id": "a-2" }
                ] }
                """
            let reply = try await wopi.post(wopi.fileURL(plan.id), ["X-WOPI-Override": "ADD_ACTIVITIES"], body: body)
            #expect(reply.status == 200)
            let responses = try decode(AddActivitiesResponse.self, reply).activityResponses
            #expect(responses.map(\.id) == ["a-1", "a-2"])
            #expect(responses.map(\.status) == [.success, .unsupported])
            let stored = try await wopi.host.activities.activities(on: plan.id)
            #expect(stored.map(\.activityID) == ["a-1"] && stored.first?.userID == "ana")
            #expect(stored.first?.json.contains("\"Bonus\":1") == true, "unknown properties are kept")
            let bad = try await wopi.post(wopi.fileURL(plan.id), ["X-WOPI-Override": "ADD_ACTIVITIES"], body: "[]")
            #expect(bad.status == 400)
            let carol = wopi.token(.file(plan.id), user: "carol")
            let hidden = try await wopi.post(
                wopi.fileURL(plan.id, token: carol), ["X-WOPI-Override": "ADD_ACTIVITIES"], body: body)
            #expect(hidden.status == 404, "Carol cannot see Plan.docx")
        }
        let vetoing = ReviewingPolicy(base: fixture.policy)
        try await TestHost.run(storage: fixture.storage, policy: vetoing, changeGuards: [vetoing]) { wopi in
            let root = try await fixture.storage.rootContainer(forUser: "ana")
            let file = try await fixture.storage.createFile(
                named: "Forbidden.docx", in: root.id, content: .empty, overwrite: false)
            let reply = try await wopi.post(
                wopi.fileURL(file.id), ["X-WOPI-Override": "ADD_ACTIVITIES"],
                body: #"{"Activities": [{"Type": "comment", "Id": "c-9"}, {"Type": "mention", "Id": "c-10"}]}"#)
            let responses = try decode(AddActivitiesResponse.self, reply).activityResponses
            #expect(responses.map(\.status) == [.failed, .failed])
            #expect(responses.first?.message?.contains("Forbidden") == true)
            #expect(try await wopi.host.activities.activities(on: file.id).isEmpty, "a vetoed activity is not stored")
            #expect(vetoing.seen.withLock { $0 } == ["ana: activities 2 on Forbidden.docx"])
        }
    }

    @Test(
        "Collabora: a stale X-COOL-WOPI-Timestamp gets 409 COOLStatusCode 1010 and changes nothing; a fresh one saves")
    func collaboraTimestamp() async throws {
        let fixture = SharingFixture()
        let policy = ReviewingPolicy(base: fixture.policy)
        try await TestHost.run(storage: fixture.storage, policy: policy, changeGuards: [policy]) { wopi in
            let (_, plan, _) = try await fixture.seed()
            let info = try decode(CheckFileInfo.self, try await wopi.get(wopi.fileURL(plan.id)))
            let stamp = try #require(info.lastModifiedTime)
            let lock = try await wopi.post(wopi.fileURL(plan.id), ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "cool"])
            #expect(lock.status == 200)
            let stale = try await wopi.post(
                wopi.fileURL(plan.id, "/contents"),
                [
                    "X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool",
                    "X-COOL-WOPI-Timestamp": "2001-01-01T00:00:00.0000000Z",
                ],
                body: "new")
            #expect(stale.status == 409)
            #expect(try stale.json()["COOLStatusCode"] as? Int == 1010)
            #expect(String(buffer: try await fixture.storage.readFile(plan.id).body.collect(upTo: 100)) == "v1")
            let fresh = try await wopi.post(
                wopi.fileURL(plan.id, "/contents"),
                [
                    "X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool", "X-COOL-WOPI-Timestamp": stamp,
                    "X-COOL-WOPI-IsModifiedByUser": "true",
                    "X-COOL-WOPI-IsAutosave": "false", "X-LOOL-WOPI-IsExitSave": "true",
                ], body: "new")
            #expect(fresh.status == 200)
            let saved = try await fixture.storage.file(plan.id)
            #expect(try fresh.json()["LastModifiedTime"] as? String == WOPIJSON.timestamp(saved.lastModified))
            let details = try #require(policy.putFiles.withLock { $0.last })
            #expect(details.isModifiedByUser == true && details.isAutosave == false && details.isExitSave == true)
            // The old timestamp no longer matches: the next save from a stale editor is refused.
            let again = try await wopi.post(
                wopi.fileURL(plan.id, "/contents"),
                ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool", "X-LOOL-WOPI-Timestamp": stamp],
                body: "stale")
            #expect(again.status == 409)
            let plain = try await wopi.post(
                wopi.fileURL(plan.id, "/contents"), ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "cool"], body: "x")
            #expect(plain.status == 200 && plain.body.readableBytes == 0, "no JSON body for other clients")
        }
    }
}

@Suite("Lock from a view-only token")
struct ViewOnlyLockTests {
    @Test("refused with 401 by default; with .acknowledge (ONLYOFFICE), 200 and no lock taken; content never changes")
    func viewOnlyLocks() async throws {
        for mode in [WOPIHostConfiguration.ViewOnlyLocks.refuse, .acknowledge] {
            let fixture = SharingFixture()
            var configuration = WOPIHostConfiguration()
            configuration.viewOnlyLocks = mode
            try await TestHost.run(storage: fixture.storage, configuration: configuration, policy: fixture.policy) {
                wopi in
                let (_, _, budget) = try await fixture.seed()
                let carol = wopi.token(.file(budget.id), user: "carol")
                let expected = mode == .refuse ? 401 : 200
                for override in ["LOCK", "REFRESH_LOCK", "UNLOCK"] {
                    let reply = try await wopi.post(
                        wopi.fileURL(budget.id, token: carol), ["X-WOPI-Override": override, "X-WOPI-Lock": "oo"])
                    #expect(reply.status == expected, "\(mode): \(override)")
                }
                let getLock = try await wopi.post(wopi.fileURL(budget.id), ["X-WOPI-Override": "GET_LOCK"])
                #expect(getLock.header("X-WOPI-Lock") == "", "\(mode): no lock was taken")
                let put = try await wopi.post(
                    wopi.fileURL(budget.id, "/contents", token: carol),
                    ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "oo"],
                    body: "x")
                #expect(put.status == 401)
            }
        }
    }
}
