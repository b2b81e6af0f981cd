public import Logging
public import Metrics
public import ServiceLifecycle

/// Runs ``GarbageCollectingStorage/collectGarbage()`` every ``interval`` while a host serves, so the leftovers of a
/// crash (abandoned uploads) and versions kept for finished readers do not pile up between restarts.
///
/// A swift-service-lifecycle `Service`: add it to the host's `ServiceGroup` beside the HTTP server; it stops on
/// graceful shutdown. Collecting is safe while other processes (or hosts) read and write the same storage.
///
/// ```swift
/// let group = ServiceGroup(configuration: .init(
///     services: [app, StorageGarbageCollector(storage: sqliteStorage, logger: logger)], logger: logger))
/// ```
public struct StorageGarbageCollector: Service {
    /// The storage to collect.
    public let storage: any GarbageCollectingStorage
    /// The time between two runs; the first runs one interval after start.
    public var interval: Duration
    /// Where each run's report goes (info) and failures (error).
    public let logger: Logger
    /// The clock that times the runs; tests pass one they move forward by hand.
    public var clock: any Clock<Duration>
    private let succeeded: Counter
    private let failed: Counter

    /// A collector of `storage`, every `interval` (an hour by default), counting its runs in
    /// `wopi_gc_runs_total{result}` through `metricsFactory` (the process's `MetricsSystem` by default).
    public init(
        storage: any GarbageCollectingStorage, interval: Duration = .seconds(3600), logger: Logger,
        clock: any Clock<Duration> = ContinuousClock(), metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.storage = storage
        self.interval = interval
        self.logger = logger
        self.clock = clock
        let factory = metricsFactory ?? MetricsSystem.factory
        succeeded = Counter(
            label: WOPIMetricName.garbageCollections, dimensions: [("result", "success")], factory: factory)
        failed = Counter(
            label: WOPIMetricName.garbageCollections, dimensions: [("result", "failure")], factory: factory)
    }

    /// Collects every ``interval`` until the service group shuts down.
    public func run() async {
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
                succeeded.increment()
                logger.info(
                    "Storage garbage collection",
                    metadata: [
                        "storage": "\(type(of: storage))", "abandonedWrites": "\(report.abandonedWrites)",
                        "retiredVersions": "\(report.retiredVersions)", "expiredLeases": "\(report.expiredLeases)",
                    ])
            } catch {
                failed.increment()
                logger.error(
                    "Storage garbage collection failed; it runs again later",
                    metadata: ["storage": "\(type(of: storage))", "error": "\(error)"])
            }
        }
    }
}
