import Foundation
import Synchronization
import Testing
import WOPIStorage
import WOPITestSupport

@testable import FUSEMount

/// Pieces that need no mount: deadlines, conflict names, errno mapping.
struct UnitTests {
    @Test func deadlineReturnsOnTimeEvenWhenTheOperationIgnoresCancellation() async throws {
        let hang = HangSwitch()
        hang.isHanging = true
        defer { hang.resume() }
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(200)) { _ in await hang.gate() }
        }
        #expect(clock.now - start < .seconds(2))
    }

    @Test func deadlineReturnsResultsAndHonoursProgress() async throws {
        #expect(try await withDeadline(.seconds(5)) { _ in 42 } == 42)
        // 6 × 60 ms = 360 ms in total on a test clock, but never 150 ms without progress.
        let clock = TestClock()
        let running = Task {
            try await withDeadline(.milliseconds(150), clock: clock) { watchdog in
                for _ in 0..<6 {
                    try await clock.sleep(for: .milliseconds(60))
                    watchdog.touch()
                }
                return 6
            }
        }
        for _ in 0..<6 {
            await clock.waitForSleepers(2)  // the operation's step and the deadline's timer
            clock.advance(by: .milliseconds(60))
        }
        #expect(try await running.value == 6)
        #expect(clock.now.offset == .milliseconds(360))
    }

    @Test func deadlinePassesWithTheInjectedClock() async throws {
        let clock = TestClock()
        let running = Task {
            try await withDeadline(.seconds(30), clock: clock) { _ in
                try await clock.sleep(for: .seconds(3600))  // a backend call that never answers
            }
        }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(29))
        #expect(clock.deadlines == [clock.now.advanced(by: .seconds(1)), clock.now.advanced(by: .seconds(3571))])
        clock.advance(by: .seconds(1))
        await #expect(throws: DeadlineExceeded.self) { try await running.value }
    }

    @Test func lateResultsAreHandedToTheAbandonHandler() async throws {
        let abandoned = Mutex<[Int]>([])
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(
                .milliseconds(50),
                { _ in
                    try? await Task.sleep(for: .milliseconds(200))
                    return 7
                }, onAbandoned: { value in abandoned.withLock { $0.append(value) } })
        }
        try await Task.sleep(for: .milliseconds(400))
        #expect(abandoned.withLock { $0 } == [7])
    }

    @Test func conflictNames() throws {
        var components = DateComponents(year: 2025, month: 1, day: 31, hour: 14, minute: 25, second: 1)
        components.timeZone = TimeZone.current
        let date = try #require(Calendar(identifier: .gregorian).date(from: components))
        #expect(ConflictName.make(for: "report.docx", at: date) == "report (conflict 2025-01-31 142501).docx")
        #expect(ConflictName.make(for: "README", at: date) == "README (conflict 2025-01-31 142501)")
        #expect(ConflictName.make(for: ".bashrc", at: date) == ".bashrc (conflict 2025-01-31 142501)")
        #expect(ConflictName.make(for: "a.tar.gz", at: date, attempt: 1) == "a.tar (conflict 2025-01-31 142501 2).gz")
        let long = ConflictName.make(for: String(repeating: "é", count: 120) + ".txt", at: date)
        #expect(long.utf8.count <= 255)
        #expect(long.hasSuffix(" (conflict 2025-01-31 142501).txt"))
        #expect(StorageName.problem(with: long) == nil)
    }

    @Test(arguments: [
        (StorageError.Code.notFound, ENOENT), (.nameConflict, EEXIST), (.invalidName, EINVAL),
        (.notEmpty, ENOTEMPTY), (.crossContainerMove, EXDEV), (.notAFile, EISDIR), (.notAContainer, ENOTDIR),
        (.versionMismatch, EIO), (.io, EIO), (.corrupt, EIO), (.unsupported, ENOTSUP), (.tooLarge, EFBIG),
    ])
    func storageErrorsMapToErrno(code: StorageError.Code, expected: Int32) {
        #expect(FileSystemFailure.errno(for: StorageError(code, "test")) == expected)
    }

    @Test func otherErrorsMapToErrno() {
        #expect(FileSystemFailure.errno(for: DeadlineExceeded(timeout: .seconds(1))) == ETIMEDOUT)
        #expect(FileSystemFailure.errno(for: FileSystemFailure(EACCES, "locked")) == EACCES)
        #expect(FileSystemFailure.errno(for: CancellationError()) == EIO)
    }
}
