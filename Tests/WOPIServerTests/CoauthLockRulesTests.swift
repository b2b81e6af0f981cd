import Foundation
import Testing
import WOPIServer
import WOPIStorage

/// The co-authoring lock rules (Docs/cspp-plus.md), one row per (request, lock state) pair, with the validator's
/// CoauthLocks and RenameFileWithCoauthLockSupported expectations among them.
struct CoauthLockRulesTests {
    /// What a row expects: the outcome kind, the IDs and types of the resulting table, and the mechanism of a 409.
    enum Outcome: Sendable, Hashable {
        case badRequest
        case conflict(CoauthLockRules.Mechanism?)
        /// Go ahead; the table afterwards as `ID:Type:metadata` (`nil`: unchanged).
        case proceed([String]?)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        let request: CoauthLockRules.Request
        let state: CoauthLockRules.State
        let expected: Outcome
        let name: String
        var testDescription: String { name }
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func lock(_ id: String, _ type: CoauthLockType = .coauth, metadata: String = "m") -> CoauthLock {
        CoauthLock(
            id: id, type: type, metadata: metadata, holder: "Old", takenAt: now.addingTimeInterval(-30),
            expiresAt: now.addingTimeInterval(90))
    }

    static let wopiLocked = CoauthLockRules.State(
        wopiLock: FileLock(id: "W", expiresAt: now.addingTimeInterval(60), visibleName: "Ada"))
    static let free = CoauthLockRules.State()
    static let one = CoauthLockRules.State(coauthLocks: [lock("C1")])
    static let exclusive = CoauthLockRules.State(coauthLocks: [lock("C1"), lock("X", .coauthExclusive)])

    static func get(_ id: String?, _ type: String? = "Coauth", timeout: String? = "120", metadata: String? = "new")
        -> CoauthLockRules.Request
    {
        .getCoauthLock(id: id, type: type, timeout: timeout, metadata: metadata)
    }

    static let rows: [Row] = [
        // GetCoauthLock: validation (400) before state (409)
        Row(request: get(nil), state: free, expected: .badRequest, name: "get without an ID"),
        Row(request: get(""), state: free, expected: .badRequest, name: "get with an empty ID"),
        Row(
            request: get(String(repeating: "i", count: 1025)), state: free, expected: .badRequest,
            name: "get with a 1025-character ID"),
        Row(request: get("C", nil), state: free, expected: .badRequest, name: "get without a type"),
        Row(request: get("C", ""), state: free, expected: .badRequest, name: "get with an empty type"),
        Row(request: get("C", "None"), state: free, expected: .badRequest, name: "get with type None"),
        Row(request: get("C", timeout: nil), state: free, expected: .badRequest, name: "get without a timeout"),
        Row(request: get("C", timeout: "59"), state: free, expected: .badRequest, name: "get with 59 s"),
        Row(request: get("C", timeout: "3601"), state: free, expected: .badRequest, name: "get with 3601 s"),
        Row(
            request: get("C", metadata: String(repeating: "m", count: 4097)), state: free, expected: .badRequest,
            name: "get with 4097 bytes of metadata"),
        Row(
            request: get("W", timeout: "60"), state: wopiLocked, expected: .conflict(.wopiLock("W")),
            name: "get on a WOPI-locked file"),
        // GetCoauthLock: taking, refreshing, switching type
        Row(request: get("C", timeout: "3600"), state: free, expected: .proceed(["C:Coauth:new"]), name: "get"),
        Row(
            request: get("C", metadata: nil), state: free, expected: .proceed(["C:Coauth:"]),
            name: "get without metadata has empty metadata"),
        Row(request: get("C1"), state: one, expected: .proceed(["C1:Coauth:new"]), name: "get again refreshes"),
        Row(
            request: get("C2"), state: one, expected: .proceed(["C1:Coauth:m", "C2:Coauth:new"]),
            name: "a second holder"),
        Row(
            request: get("C1", "CoauthExclusive"), state: one, expected: .proceed(["C1:CoauthExclusive:new"]),
            name: "a holder upgrades to exclusive"),
        Row(
            request: get("C2", "CoauthExclusive"), state: one,
            expected: .proceed(["C1:Coauth:m", "C2:CoauthExclusive:new"]), name: "exclusive beside a shared lock"),
        Row(
            request: get("C1", "CoauthExclusive"), state: exclusive, expected: .conflict(.coauthExclusiveLock),
            name: "a second exclusive lock"),
        Row(
            request: get("X"), state: exclusive, expected: .proceed(["C1:Coauth:m", "X:Coauth:new"]),
            name: "the exclusive holder downgrades"),
        Row(
            request: get("C3"), state: exclusive,
            expected: .proceed(["C1:Coauth:m", "C3:Coauth:new", "X:CoauthExclusive:m"]),
            name: "a shared lock beside an exclusive one"),
        // RefreshCoauthLock
        Row(
            request: .refreshCoauthLock(id: nil, timeout: "120", metadata: nil), state: one, expected: .badRequest,
            name: "refresh without an ID"),
        Row(
            request: .refreshCoauthLock(id: "C1", timeout: nil, metadata: nil), state: one, expected: .badRequest,
            name: "refresh without a timeout"),
        Row(
            request: .refreshCoauthLock(id: "C1", timeout: "3601", metadata: nil), state: one, expected: .badRequest,
            name: "refresh with 3601 s"),
        Row(
            request: .refreshCoauthLock(id: "C1", timeout: "120", metadata: nil), state: free, expected: .conflict(nil),
            name: "refresh with no lock"),
        Row(
            request: .refreshCoauthLock(id: "C1", timeout: "120", metadata: nil), state: one,
            expected: .proceed(["C1:Coauth:m"]), name: "refresh keeps the metadata"),
        Row(
            request: .refreshCoauthLock(id: "C1", timeout: "120", metadata: ""), state: one,
            expected: .proceed(["C1:Coauth:m"]), name: "refresh with empty metadata keeps it"),
        Row(
            request: .refreshCoauthLock(id: "C1", timeout: "120", metadata: "v2"), state: one,
            expected: .proceed(["C1:Coauth:v2"]), name: "refresh with metadata replaces it"),
        // UnlockCoauthLock
        Row(request: .unlockCoauthLock(id: nil), state: one, expected: .badRequest, name: "unlock without an ID"),
        Row(request: .unlockCoauthLock(id: "C1"), state: free, expected: .conflict(nil), name: "unlock with no lock"),
        Row(request: .unlockCoauthLock(id: "C2"), state: one, expected: .conflict(nil), name: "unlock another ID"),
        Row(request: .unlockCoauthLock(id: "X"), state: exclusive, expected: .proceed(["C1:Coauth:m"]), name: "unlock"),
    ]

    @Test(arguments: rows)
    func decisionTable(_ row: Row) {
        let decision = CoauthLockRules.decide(row.request, state: row.state, holder: "Bea", now: Self.now)
        switch (decision, row.expected) {
        case (.badRequest, .badRequest):
            break
        case (.conflict(let conflict), .conflict(let mechanism)):
            #expect(conflict.mechanism == mechanism)
            #expect(!conflict.reason.isEmpty)
        case (.proceed(let table), .proceed(let expected)):
            #expect(table?.map { "\($0.id):\($0.type.rawValue):\($0.metadata)" } == expected)
        default:
            Issue.record("got \(decision), expected \(row.expected)")
        }
    }

    @Test func aNewLockIsTheRequestersAndAnOldOneKeepsItsHolderAndTime() throws {
        guard
            case .proceed(let table?) = CoauthLockRules.decide(
                Self.get("C2"), state: Self.one, holder: "Bea", now: Self.now)
        else { Issue.record("a second holder must proceed"); return }
        let old = try #require(table.first { $0.id == "C1" })
        let new = try #require(table.first { $0.id == "C2" })
        #expect(old == Self.lock("C1"))
        #expect(new.holder == "Bea" && new.takenAt == Self.now && new.expiresAt == Self.now.addingTimeInterval(120))
        guard
            case .proceed(let refreshed?) = CoauthLockRules.decide(
                Self.get("C1"), state: Self.one, holder: "Bea", now: Self.now)
        else { Issue.record("getting a held lock again must proceed"); return }
        #expect(refreshed[0].holder == "Old" && refreshed[0].takenAt == Self.lock("C1").takenAt)
    }

    @Test func aConflictWithAVisibleWOPILockNamesItsHolder() {
        guard
            case .conflict(let conflict) = CoauthLockRules.decide(
                Self.get("C"), state: Self.wopiLocked, holder: "Bea", now: Self.now)
        else { Issue.record("a coauth lock on a WOPI-locked file must conflict"); return }
        #expect(conflict.conflictingUser == "Ada")
        #expect(conflict.mechanism?.headerValue == "WOPI-Lock")
    }

    // MARK: Writes (RenameFileWithCoauthLockSupported and PutFile)

    struct WriteRow: CustomTestStringConvertible, Sendable {
        let write: CoauthLockRules.Write
        let coauthLockID: String?
        let wopiLock: String?
        let state: CoauthLockRules.State
        /// `nil`: the WOPI lock rules decide.
        let expected: Outcome?
        var testDescription: String {
            "\(write) presenting coauth \(coauthLockID ?? "∅") / WOPI \(wopiLock ?? "∅") on \(state.coauthLocks.map(\.id))"
        }
    }

    static let writeRows: [WriteRow] = [
        WriteRow(write: .renameFile, coauthLockID: "C1", wopiLock: nil, state: one, expected: .proceed(nil)),
        WriteRow(write: .renameFile, coauthLockID: "C1", wopiLock: nil, state: free, expected: .proceed(nil)),
        WriteRow(write: .renameFile, coauthLockID: nil, wopiLock: nil, state: free, expected: nil),
        WriteRow(write: .renameFile, coauthLockID: nil, wopiLock: nil, state: one, expected: .conflict(.coauthLock)),
        WriteRow(
            write: .renameFile, coauthLockID: nil, wopiLock: "Wrong", state: one, expected: .conflict(.coauthLock)),
        WriteRow(
            write: .renameFile, coauthLockID: "Wrong", wopiLock: nil, state: one, expected: .conflict(.coauthLock)),
        WriteRow(
            write: .renameFile, coauthLockID: "Wrong", wopiLock: nil, state: wopiLocked,
            expected: .conflict(.wopiLock("W"))),
        WriteRow(write: .renameFile, coauthLockID: "C", wopiLock: "W", state: free, expected: .badRequest),
        WriteRow(write: .putFile, coauthLockID: "C1", wopiLock: nil, state: one, expected: .proceed(nil)),
        WriteRow(write: .putFile, coauthLockID: "C1", wopiLock: nil, state: free, expected: .conflict(nil)),
        WriteRow(write: .putFile, coauthLockID: "X", wopiLock: nil, state: exclusive, expected: .proceed(nil)),
        WriteRow(
            write: .putFile, coauthLockID: "C1", wopiLock: nil, state: exclusive,
            expected: .conflict(.coauthExclusiveLock)),
        WriteRow(
            write: .putFile, coauthLockID: nil, wopiLock: "L", state: exclusive,
            expected: .conflict(.coauthExclusiveLock)),
        WriteRow(write: .putFile, coauthLockID: nil, wopiLock: "W", state: wopiLocked, expected: nil),
    ]

    @Test(arguments: writeRows)
    func writes(_ row: WriteRow) {
        let decision = CoauthLockRules.decideWrite(
            row.write, coauthLockID: row.coauthLockID, wopiLock: row.wopiLock, state: row.state)
        switch (decision, row.expected) {
        case (nil, nil), (.badRequest?, .badRequest?), (.proceed(nil)?, .proceed(nil)?):
            break
        case (.conflict(let conflict)?, .conflict(let mechanism)?):
            #expect(conflict.mechanism == mechanism)
        default:
            Issue.record("got \(String(describing: decision)), expected \(String(describing: row.expected))")
        }
    }

    @Test func wopiLockRequestsMeetCoauthLocksWithoutALockValue() {
        for request in [LockRules.Request.lock("A"), .refreshLock("A"), .unlock("A"), .deleteFile, .overwriteTarget] {
            guard case .conflict(let conflict)? = CoauthLockRules.decideWOPILockRequest(request, state: Self.exclusive)
            else { Issue.record("\(request) on a co-authored file must conflict"); continue }
            #expect(conflict.mechanism == .coauthExclusiveLock)
            #expect(CoauthLockRules.decideWOPILockRequest(request, state: Self.free) == nil)
        }
        #expect(CoauthLockRules.decideWOPILockRequest(.getLock, state: Self.one) == nil)
    }

    @Test func lockExpirationTimeoutIsSixtyToThreeThousandSixHundredSeconds() {
        #expect(CoauthLockRules.wopiLockDuration(nil, defaultDuration: 1800) == .success(1800))
        #expect(CoauthLockRules.wopiLockDuration("60", defaultDuration: 1800) == .success(60))
        #expect(CoauthLockRules.wopiLockDuration("3600", defaultDuration: 1800) == .success(3600))
        for bad in ["59", "3601", "", "abc", "-60"] {
            guard case .failure = CoauthLockRules.wopiLockDuration(bad, defaultDuration: 1800) else {
                Issue.record("\(bad) must be refused"); continue
            }
        }
    }

    // MARK: CoauthTableVersion

    @Test func theTableVersionFollowsRowsButNotExpiries() {
        let table = [Self.lock("A"), Self.lock("B", .coauthExclusive)]
        let version = CoauthLockRules.tableVersion(of: table)
        #expect(!version.isEmpty)
        #expect(CoauthLockRules.tableVersion(of: table.reversed()) == version)
        var refreshed = table
        refreshed[0].expiresAt += 600
        #expect(CoauthLockRules.tableVersion(of: refreshed) == version)
        var changes: [[CoauthLock]] = [[], [Self.lock("A")], [Self.lock("A"), Self.lock("B")]]
        var metadata = table
        metadata[0].metadata = "other"
        changes.append(metadata)
        var retaken = table
        retaken[0].takenAt += 1
        changes.append(retaken)
        let versions = Set(changes.map(CoauthLockRules.tableVersion(of:)))
        #expect(versions.count == changes.count)
        #expect(!versions.contains(version))
        // A fixed vector, so every host (and release) computes the same version for the same table.
        #expect(CoauthLockRules.tableVersion(of: []) == "vcbf29ce484222325")
    }
}
