import Metrics
import WOPIStorage

/// Gauge `wopi_active_locks{kind}`: the unexpired locks of the deployment's lock store by mechanism (`wopi`,
/// `coauth`, `coauth_exclusive`), across every host that shares the store. It is read from the store when the
/// metrics are scraped (one ``WOPIStorage/LockStore/heldLocks()`` per scrape), so it is as fresh as the scrape and
/// costs nothing between scrapes. A store that cannot be read leaves the last values.
struct ActiveLocksGauge: Sendable {
    private let locks: any LockStore
    private let gauges: [(HeldLock.Kind, Gauge)]

    init(locks: any LockStore, factory: any MetricsFactory) {
        self.locks = locks
        gauges = [(.wopi, "wopi"), (.coauth, "coauth"), (.coauthExclusive, "coauth_exclusive")].map { kind, label in
            (kind, Gauge(label: WOPIMetricName.activeLocks, dimensions: [("kind", label)], factory: factory))
        }
    }

    /// Counts the held locks and records the counts.
    func refresh() async {
        guard let held = try? await locks.heldLocks() else { return }
        for (kind, gauge) in gauges {
            gauge.record(held.count { $0.kind == kind })
        }
    }
}
