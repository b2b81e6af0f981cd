import ChunkedVersionStore
import Foundation
import Logging
import SQLiteStorage
import Testing
import WOPIStorage
import WOPITestSupport

@Suite("SQLiteGarbageCollector: the service a host runs beside its server")
struct SQLiteGarbageCollectorTests {
    @Test("collects on its interval by the injected clock, and stops on cancellation")
    func collectsEveryInterval() async throws {
        let file = try TemporaryDatabaseFile()
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        var configuration = SQLiteStorage.Configuration(
            chunkSize: 4_096, chunksPerTransaction: 2, versionRetention: .currentOnly)
        configuration.now = clock.dateSource
        let storage = try file.openStorage(configuration)
        let root = try await storage.rootContainer(forUser: "alice")
        let doc = try await storage.createFile(
            named: "doc.bin", in: root.id, content: TestContent.stream(seed: 1, size: 20_000), overwrite: false)
        let abandoned = try await storage.readFile(doc.id)  // a reader that never finishes keeps the old version
        _ = try await storage.writeFile(doc.id, content: TestContent.stream(seed: 2, size: 100), expectedVersion: nil)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "file_versions") == 2)

        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let interval = configuration.readLeaseDuration + 60
        let collector = StorageGarbageCollector(
            storage: storage, interval: .seconds(interval), logger: logger, clock: clock)
        let running = Task { await collector.run() }
        await clock.waitForSleepers(1)
        #expect(try await TemporaryDatabaseFile.count(storage.database, "file_versions") == 2, "nothing before")
        clock.advance(by: .seconds(interval))
        await clock.waitForSleepers(1)  // the collector ran once and sleeps again
        #expect(try await TemporaryDatabaseFile.count(storage.database, "file_versions") == 1)
        running.cancel()
        await running.value
        _ = abandoned
    }
}
