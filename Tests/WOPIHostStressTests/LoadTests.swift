import Foundation
import SQLiteStorage
import Testing
import WOPITestSupport

/// Sixteen concurrent WOPI clients against the example host (SQLite storage) for ``duration``.
///
/// They see no errors but the `409`s the lock rules ask for, every body read is one complete version, and no
/// request fails at the transport level.
@Suite(.serialized) struct LoadTests {
    /// How long the clients run: 30 seconds is the acceptance figure.
    static let duration: Duration = .seconds(30)
    static let clientCount = 16
    static let fileCount = 4
    static let seed: UInt64 = 0x10AD

    @Test func sixteenClientsSeeOnlyProtocolConflictsAndWholeVersions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let client = WOPIClient()
        let registry = VersionRegistry()
        let tally = LoadTally()
        let host = try HostProcess(dataDirectory: directory.url)
        try await client.use(killingOnFailure: { host }) {
            let base = try await host.waitUntilListening()
            let sizes = (0..<Self.fileCount).map { 100_000 + $0 * 50_000 }
            let files = try await WOPIFile.importFiles(sizes: sizes, into: directory.url, registry: registry)

            let started = ContinuousClock.now
            let deadline = started + Self.duration
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<Self.clientCount {
                    group.addTask {
                        var loadClient = LoadClient(
                            index: index, files: files, base: base, client: client, registry: registry, tally: tally,
                            seed: Self.seed)
                        await loadClient.run(until: deadline)
                    }
                }
            }
            let elapsed = ContinuousClock.now - started
            print("load: \(Self.clientCount) clients, \(tally.total) requests in \(elapsed)\n\(tally.table)")

            #expect(tally.violations.isEmpty, "\(tally.violations.count) violations: \(tally.violations.prefix(10))")
            #expect(tally.transportFailures.isEmpty, "\(tally.transportFailures.prefix(10))")
            #expect(tally.count("Lock", 200) > 0 && tally.count("PutFile", 200) > 0 && tally.count("GetFile", 200) > 0)
            #expect(tally.count("Lock", 409) > 0, "clients competed for the same locks")
            #expect(await host.stop(signal: SIGTERM) == 0, "graceful shutdown exits 0")
            let database = try SQLiteDatabase(path: directory.url.appendingPathComponent("wopi.sqlite").path)
            #expect(try await database.integrityCheck() == ["ok"])
            try database.close()
        }
    }
}
