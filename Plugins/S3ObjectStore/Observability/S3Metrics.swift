import Metrics
import Synchronization

/// The store's metric handles (``S3MetricName``), each made once per label values and reused, so a request records
/// without building strings.
final class S3Metrics: Sendable {
    private struct Labels: Hashable, Sendable {
        let operation: S3Operation
        let value: String
    }

    private let factory: any MetricsFactory
    private let requests = Mutex<[Labels: Counter]>([:])
    private let durations = Mutex<[S3Operation: Metrics.Timer]>([:])
    private let errors = Mutex<[Labels: Counter]>([:])
    private let retries = Mutex<[Labels: Counter]>([:])
    /// Bytes of request bodies sent.
    let bytesSent: Counter
    /// Bytes of object content received.
    let bytesReceived: Counter

    init(factory: any MetricsFactory) {
        self.factory = factory
        bytesSent = Counter(label: S3MetricName.bytesSent, factory: factory)
        bytesReceived = Counter(label: S3MetricName.bytesReceived, factory: factory)
    }

    /// Counts an attempt answered with `status` (nil: no answer) and records its time to the response head.
    func answered(_ operation: S3Operation, status: Int?, after duration: Duration) {
        let statusClass = status.map { "\($0 / 100)xx" } ?? "error"
        handle(requests, Labels(operation: operation, value: statusClass)) { labels in
            Counter(
                label: S3MetricName.requests,
                dimensions: [("operation", labels.operation.rawValue), ("status", labels.value)], factory: factory)
        }.increment()
        let timer = durations.withLock { timers in
            if let timer = timers[operation] { return timer }
            let timer = Metrics.Timer(
                label: S3MetricName.requestDuration, dimensions: [("operation", operation.rawValue)],
                preferredDisplayUnit: .seconds, factory: factory)
            timers[operation] = timer
            return timer
        }
        timer.record(duration: duration)
    }

    /// Counts an operation that failed with `code`.
    func failed(_ operation: S3Operation, code: S3Error.Code) {
        handle(errors, Labels(operation: operation, value: code.description)) { labels in
            Counter(
                label: S3MetricName.errors,
                dimensions: [("operation", labels.operation.rawValue), ("code", labels.value)], factory: factory)
        }.increment()
    }

    /// Counts a retry of `operation` for `reason`.
    func retried(_ operation: S3Operation, reason: String) {
        handle(retries, Labels(operation: operation, value: reason)) { labels in
            Counter(
                label: S3MetricName.retries,
                dimensions: [("operation", labels.operation.rawValue), ("reason", labels.value)], factory: factory)
        }.increment()
    }

    private func handle(
        _ handles: borrowing Mutex<[Labels: Counter]>, _ labels: Labels, make: (Labels) -> Counter
    ) -> Counter {
        handles.withLock { handles in
            if let counter = handles[labels] { return counter }
            let counter = make(labels)
            handles[labels] = counter
            return counter
        }
    }
}
