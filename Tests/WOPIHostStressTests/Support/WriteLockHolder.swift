import Foundation
import WOPITestSupport

/// Another process (python3's `sqlite3`) holding the write lock of a SQLite database in an open
/// `BEGIN IMMEDIATE` transaction, until ``release()``.
final class WriteLockHolder {
    private let process: Process
    private let marker: URL

    init(database: URL) throws {
        marker = database.deletingLastPathComponent().appendingPathComponent("write-lock-held")
        let script = """
            from sqlite3 import connect
            from sys import argv
            from time import sleep
            connection = connect(argv[1], isolation_level=None, timeout=30)
            connection.execute("BEGIN IMMEDIATE")
            open(argv[2], "w").close()
            sleep(300)
            """
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, database.path, marker.path]
        try process.run()
        ChildProcesses.register(process.processIdentifier)
    }

    /// Waits until the transaction holds the lock; fails when python3 exits first.
    func waitUntilHeld() async throws {
        let held = try await Polling.until {
            let held = FileManager.default.fileExists(atPath: marker.path)
            guard held || process.isRunning else {
                throw HostProcessError("python3 could not take the SQLite write lock (is python3 installed?)")
            }
            return held
        }
        guard held else { throw HostProcessError("python3 did not take the SQLite write lock within a minute") }
    }

    /// Ends the process; its transaction rolls back and the lock is free.
    func release() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        ChildProcesses.unregister(process.processIdentifier)
    }
}
