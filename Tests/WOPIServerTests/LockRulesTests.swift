import Testing
import WOPIServer

/// The whole decision table of Docs/wopi-protocol.md §5.3, one row per (operation, lock state) pair.
struct LockRulesTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let request: LockRules.Request
        let current: String?
        let expected: LockRules.Decision
        var testDescription: String { "\(request) with lock \(current ?? "∅")" }
    }

    static let badRequest = "bad"
    static let long = String(repeating: "x", count: 1024)
    static let tooLong = String(repeating: "x", count: 1025)

    static let rows: [Row] = [
        // Lock
        Row(request: .lock(nil), current: nil, expected: .badRequest("")),
        Row(request: .lock(""), current: "A", expected: .badRequest("")),
        Row(request: .lock(tooLong), current: nil, expected: .badRequest("")),
        Row(request: .lock("A"), current: nil, expected: .proceed(.set("A"))),
        Row(request: .lock(long), current: nil, expected: .proceed(.set(long))),
        Row(request: .lock("A"), current: "A", expected: .proceed(.set("A"))),
        Row(request: .lock("B"), current: "A", expected: .conflict(current: "A", reason: "")),
        Row(request: .lock("a"), current: "A", expected: .conflict(current: "A", reason: "")),
        // UnlockAndRelock
        Row(request: .unlockAndRelock(old: "A", new: nil), current: "A", expected: .badRequest("")),
        Row(request: .unlockAndRelock(old: "A", new: ""), current: "A", expected: .badRequest("")),
        Row(request: .unlockAndRelock(old: "A", new: "B"), current: nil, expected: .conflict(current: "", reason: "")),
        Row(request: .unlockAndRelock(old: "A", new: "B"), current: "A", expected: .proceed(.set("B"))),
        Row(request: .unlockAndRelock(old: "X", new: "B"), current: "A", expected: .conflict(current: "A", reason: "")),
        // RefreshLock
        Row(request: .refreshLock(nil), current: "A", expected: .badRequest("")),
        Row(request: .refreshLock("A"), current: nil, expected: .conflict(current: "", reason: "")),
        Row(request: .refreshLock("A"), current: "A", expected: .proceed(.set("A"))),
        Row(request: .refreshLock("B"), current: "A", expected: .conflict(current: "A", reason: "")),
        // Unlock
        Row(request: .unlock(nil), current: "A", expected: .badRequest("")),
        Row(request: .unlock(""), current: nil, expected: .badRequest("")),
        Row(request: .unlock("A"), current: nil, expected: .conflict(current: "", reason: "")),
        Row(request: .unlock("A"), current: "A", expected: .proceed(.clear)),
        Row(request: .unlock("B"), current: "A", expected: .conflict(current: "A", reason: "")),
        // GetLock
        Row(request: .getLock, current: nil, expected: .proceed(.keep)),
        Row(request: .getLock, current: "A", expected: .proceed(.keep)),
        // PutFile
        Row(request: .putFile(nil, currentSize: 0), current: nil, expected: .proceed(.keep)),
        Row(request: .putFile(nil, currentSize: 5), current: nil, expected: .conflict(current: "", reason: "")),
        Row(request: .putFile("A", currentSize: 5), current: nil, expected: .conflict(current: "", reason: "")),
        Row(request: .putFile("A", currentSize: 5), current: "A", expected: .proceed(.keep)),
        Row(request: .putFile("B", currentSize: 5), current: "A", expected: .conflict(current: "A", reason: "")),
        Row(request: .putFile(nil, currentSize: 5), current: "A", expected: .conflict(current: "A", reason: "")),
        Row(request: .putFile(nil, currentSize: 0), current: "A", expected: .conflict(current: "A", reason: "")),
        // RenameFile
        Row(request: .renameFile(nil), current: nil, expected: .proceed(.keep)),
        Row(request: .renameFile("A"), current: "A", expected: .proceed(.keep)),
        Row(request: .renameFile("B"), current: "A", expected: .conflict(current: "A", reason: "")),
        Row(request: .renameFile(nil), current: "A", expected: .conflict(current: "A", reason: "")),
        // DeleteFile
        Row(request: .deleteFile, current: nil, expected: .proceed(.keep)),
        Row(request: .deleteFile, current: "A", expected: .conflict(current: "A", reason: "")),
        // Overwriting a target with PutRelativeFile / CreateChildFile
        Row(request: .overwriteTarget, current: nil, expected: .proceed(.keep)),
        Row(request: .overwriteTarget, current: "A", expected: .conflict(current: "A", reason: "")),
    ]

    @Test(arguments: rows)
    func decisionTable(_ row: Row) {
        let decision = LockRules.decide(row.request, current: row.current)
        // Compare the kind and the lock values; reasons are free text.
        switch (decision, row.expected) {
        case (.badRequest, .badRequest): break
        case (.conflict(let current, _), .conflict(let expected, _)): #expect(current == expected)
        case (.proceed(let change), .proceed(let expected)): #expect(change == expected)
        default: Issue.record("got \(decision), expected \(row.expected)")
        }
    }

    @Test func everyConflictCarriesTheCurrentLockOrEmpty() {
        for row in Self.rows {
            if case .conflict(let current, let reason) = LockRules.decide(row.request, current: row.current) {
                #expect(current == (row.current ?? ""))
                #expect(!reason.isEmpty)
            }
        }
    }
}
