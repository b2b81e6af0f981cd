import Foundation
import GRDB
import Testing

@testable import SQLiteStorage

/// The inline readers and the threads they run on. Threads come and go (an idle cooperative thread exits, an event
/// loop ends with its server), and the database may close before they end.
struct SQLiteThreadReadersTests {
    /// A thread reads through the database, the database closes, then the thread exits: the read answered, the
    /// thread's exit frees nothing twice, and a read after the close fails. (The heap corruption this guards
    /// against showed when idle cooperative threads exited during `swift test --filter
    /// "SQLiteStorageTests|FaultTests"`, which aborted in 3 of 3 runs before the fix and passes since; a plain
    /// thread, as here, did not reproduce it.)
    @Test func threadsThatExitAfterTheirDatabaseClosedFreeNothing() throws {
        let file = try TemporaryDatabaseFile()
        for _ in 0..<16 {
            let database = try file.openDatabase()
            let readers = database.inlineReaders
            let read = DispatchSemaphore(value: 0)
            let closed = DispatchSemaphore(value: 0)
            let result = ReadResult()
            try Self.runThread {
                result.value = try? readers.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
                read.signal()
                closed.wait()  // the thread ends only once the database is closed
            } whileItRuns: {
                read.wait()
                try database.close()
                closed.signal()
            }
            #expect(result.value == 1)
            #expect(throws: (any Error).self) { try readers.read { db in try Int.fetchOne(db, sql: "SELECT 1") } }
        }
    }

    final class ReadResult: @unchecked Sendable {
        var value: Int??
    }

    /// Runs `work` on a thread of its own, runs `meanwhile` here, then waits until that thread has exited (its
    /// thread-specific destructors included).
    static func runThread(_ work: @escaping @Sendable () -> Void, whileItRuns meanwhile: () throws -> Void) throws {
        final class Work {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, context)
        try #require(created == 0)
        defer { pthread_join(thread, nil) }
        try meanwhile()
    }
}
