private typealias V = ValidatorValues

extension ValidatorGroup {
    /// `Locks`: the lock sequences of Docs/wopi-protocol.md §5.4.
    static let locks = ValidatorGroup(
        name: "Locks", prerequisites: [Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.locks],
        cases: [
            lockRoundTrip("LockLengthValidation", V.lock256),
            lockRoundTrip("LockFormatValidation", V.jsonLock),
            ValidatorCase(
                "SuccessfulLockSequence",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.refreshLock(V.lockString))
                    try await run.send(.unlockAndRelock(old: V.lockString, new: V.newLockString))
                    try await run.send(.unlock(V.newLockString))
                }, cleanup: unlocking(V.lockString, V.newLockString)),
            ValidatorCase(
                "LockMismatchAfterUnlockAndRelockRequest",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.unlockAndRelock(old: V.lockString, new: V.newLockString))
                    try await run.send(.unlock(V.lockString), expect: [.lockMismatch(V.newLockString)])
                    try await run.send(.unlock(V.newLockString))
                }, cleanup: unlocking(V.lockString, V.newLockString)),
            ValidatorCase(
                "DoubleLockSequence",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.lock(V.lockString))
                    try await run.send(.unlock(V.lockString))
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "UnlockUnlockedFile",
                requests: { run in
                    try await run.send(.unlock(V.lockString), expect: [.lockMismatch("")])
                }, cleanup: unlocking(V.lockString)),
            lockMismatch("LockMismatchOnLockRequest", .lock(V.incorrectLockString)),
            lockMismatch("LockMismatchOnUnlockRequest", .unlock(V.incorrectLockString)),
            lockMismatch("LockMismatchOnRefreshLockRequest", .refreshLock(V.incorrectLockString)),
            lockMismatch(
                "LockMismatchOnUnlockAndRelockRequest",
                .unlockAndRelock(old: V.incorrectLockString, new: V.newLockString)),
            lockMismatch(
                "LockMismatchOnPutFileRequest", .putFile(lock: V.incorrectLockString, document: .wordBlankDocument)),
            ValidatorCase(
                "LockFileWithInvalidAccessToken",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(.lock(V.lockString), token: V.invalidToken, expect: [.invalidToken])
                    try await run.send(.lock(V.lockString))
                    try await run.send(.unlock(V.lockString))
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "UnlockFileWithInvalidAccessToken",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(.lock(V.lockString))
                    try await run.send(.unlock(V.lockString), token: V.invalidToken, expect: [.invalidToken])
                    try await run.send(.unlock(V.lockString))
                }, cleanup: unlocking(V.lockString)),
        ])

    /// `GetLock`: the current lock ID, or "" when unlocked.
    static let getLock = ValidatorGroup(
        name: "GetLock",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.locks, Prerequisite.getLock,
        ],
        cases: [
            ValidatorCase(
                "files.GetLock",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.getLock, expect: [.header("X-WOPI-Lock", expected: V.lockString)])
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "files.GetLockAfterChange",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.unlockAndRelock(old: V.lockString, new: V.newLockString))
                    try await run.send(.getLock, expect: [.header("X-WOPI-Lock", expected: V.newLockString)])
                }, cleanup: unlocking(V.newLockString)),
            ValidatorCase("files.GetLockOnUnlockedFile") { run in
                try await run.send(.lock(V.lockString))
                try await run.send(.unlock(V.lockString))
                try await run.send(.getLock, expect: [.header("X-WOPI-Lock", expected: "")])
            },
        ])

    /// `ExtendedLockLength`: a 1024-character lock ID round trip.
    static let extendedLockLength = ValidatorGroup(
        name: "ExtendedLockLength",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.locks, Prerequisite.getLock,
            Prerequisite.extendedLockLength,
        ],
        cases: [
            ValidatorCase(
                "files.ExtendedLockLengthValidation",
                requests: { run in
                    try await run.send(
                        .checkFileInfo,
                        expect: [.json([.bool("SupportsExtendedLockLength", required: true, equals: true)])])
                    try await run.send(.lock(V.lock1024))
                    // The validator only expects 200 here; this port also checks the ID comes back whole.
                    try await run.send(.getLock, expect: [.ok, .header("X-WOPI-Lock", expected: V.lock1024)])
                    try await run.send(.unlock(V.lock1024))
                }, cleanup: unlocking(V.lock1024))
        ])

    /// Lock then Unlock with `lock`.
    private static func lockRoundTrip(_ name: String, _ lock: String) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                try await run.send(.lock(lock))
                try await run.send(.unlock(lock))
            }, cleanup: unlocking(lock))
    }

    /// Lock with `LockString`, then `operation` must answer 409 with `X-WOPI-Lock: LockString`, then Unlock.
    private static func lockMismatch(_ name: String, _ operation: WopiOperation) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                try await run.send(.lock(V.lockString))
                try await run.send(operation, expect: [.lockMismatch(V.lockString)])
                try await run.send(.unlock(V.lockString))
            }, cleanup: unlocking(V.lockString, V.incorrectLockString, V.newLockString))
    }

    /// Cleanup requests: Unlock with each ID.
    static func unlocking(_ locks: String...) -> @Sendable (CaseRun) async -> Void {
        { run in
            for lock in locks { await run.cleanup(.unlock(lock)) }
        }
    }
}
