import Metrics
import WOPIStorage

/// The WOPI host's metrics (Docs/operations.md): requests by operation and status with their latency, lock
/// conflicts, proof-key failures, GetFile and PutFile bytes and storage errors. Every handle is made once, at the
/// host's start or on the first use of its label values, so a request records without building strings.
final class HostMetrics: Sendable {
    private struct RequestKey: Hashable, Sendable {
        let operation: String
        let status: Int
    }

    /// The handles one answered request records into: its operation and status's counter, its operation's timer.
    private struct RequestHandles: Sendable {
        let count: Counter
        let duration: Metrics.Timer
    }

    /// Looked up once per request, under one lock.
    private let requests: MetricHandles<RequestKey, RequestHandles>
    private let proofKeyFailures: MetricHandles<String, Counter>
    private let storageErrors: MetricHandles<String, Counter>
    let lockConflicts: Counter
    let getFileBytes: Counter
    let putFileBytes: Counter
    /// Restores and deletions of versions, by `change`.
    private let versionChanges: MetricHandles<String, Counter>

    /// The failures of a storage or database, as opposed to the answers a request can expect (not found, a name
    /// conflict, …).
    private static let storageFailures: Set<StorageError.Code> = [.io, .corrupt, .busy, .unavailable]

    init(factory: any MetricsFactory) {
        // One timer per operation, whatever the status: made with the operation's first counter.
        let durations = MetricHandles<String, Metrics.Timer> { operation in
            Metrics.Timer(
                label: WOPIMetricName.requestDuration, dimensions: [("operation", operation)],
                preferredDisplayUnit: .seconds, factory: factory)
        }
        requests = MetricHandles { key in
            RequestHandles(
                count: Counter(
                    label: WOPIMetricName.requests,
                    dimensions: [("operation", key.operation), ("status", String(key.status))], factory: factory),
                duration: durations[key.operation])
        }
        proofKeyFailures = MetricHandles(counter: WOPIMetricName.proofKeyFailures, dimension: "check", factory: factory)
        storageErrors = MetricHandles(counter: WOPIMetricName.storageErrors, dimension: "code", factory: factory)
        lockConflicts = Counter(label: WOPIMetricName.lockConflicts, factory: factory)
        getFileBytes = Counter(label: WOPIMetricName.getFileBytes, factory: factory)
        putFileBytes = Counter(label: WOPIMetricName.putFileBytes, factory: factory)
        versionChanges = MetricHandles(counter: WOPIMetricName.versionChanges, dimension: "change", factory: factory)
    }

    /// Counts a change to an earlier version of a file: `restore` or `delete`.
    func versionChanged(_ change: String) {
        versionChanges[change].increment()
    }

    /// Counts an answered request and records how long it took to its response head.
    func answered(_ operation: String, status: Int, after duration: Duration) {
        let handles = requests[RequestKey(operation: operation, status: status)]
        handles.count.increment()
        handles.duration.record(duration: duration)
    }

    /// Counts a request refused by the proof-key check named `check` (a ``ProofKeyRejection`` code, or
    /// `keysUnavailable`).
    func proofKeyFailed(_ check: String) { proofKeyFailures[check].increment() }

    /// Counts `error` when it is a failure of the storage or the database.
    func failed(with error: any Error) {
        guard let error = error as? StorageError, Self.storageFailures.contains(error.code) else { return }
        storageErrors[error.code.description].increment()
    }
}
