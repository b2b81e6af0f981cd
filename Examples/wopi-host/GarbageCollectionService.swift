import Logging
import SQLiteStorage
import ServiceLifecycle

/// Runs ``SQLiteStorage/collectGarbage()`` every `interval` while the host serves, so the leftovers of a crash
/// (abandoned uploads) and versions kept for finished readers do not pile up between restarts.
struct GarbageCollectionService: Service {
    let storage: SQLiteStorage
    var interval: Duration = .seconds(3600)
    let logger: Logger
    /// The clock that times the runs; tests pass one they move forward by hand.
    var clock: any Clock<Duration> = ContinuousClock()

    /// Collects every ``interval`` until the host shuts down.
    func run() async {
        await cancelWhenGracefulShutdown { await collectPeriodically() }
    }

    private func collectPeriodically() async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return  // cancelled: the host is shutting down.
            }
            do {
                let report = try await storage.collectGarbage()
                logger.info(
                    "SQLite garbage collection",
                    metadata: [
                        "abandonedWrites": "\(report.abandonedWrites)", "retiredVersions": "\(report.retiredVersions)",
                        "expiredLeases": "\(report.expiredLeases)",
                    ])
            } catch {
                logger.error("SQLite garbage collection failed; it runs again later", metadata: ["error": "\(error)"])
            }
        }
    }
}
