package import Metrics
package import Synchronization

/// Metric handles of one name made once per label value and reused: a request looks its handle up under a lock
/// rather than asking the metrics backend for a new one each time.
package final class MetricHandles<Key: Hashable & Sendable, Handle: Sendable>: Sendable {
    // Reached from the inlinable subscript, so that it is specialised in the module that records.
    @usableFromInline let handles: Mutex<[Key: Handle]>
    @usableFromInline let make: @Sendable (Key) -> Handle

    /// Handles made by `make` on first use of a key.
    package init(_ make: @escaping @Sendable (Key) -> Handle) {
        self.handles = Mutex([:])
        self.make = make
    }

    /// The handle of `key`.
    @inlinable
    package subscript(_ key: Key) -> Handle {
        handles.withLock { handles in
            if let handle = handles[key] { return handle }
            let handle = make(key)
            handles[key] = handle
            return handle
        }
    }
}

extension MetricHandles where Key == String, Handle == Counter {
    /// Counters of `label` with one label `dimension` whose value is the key.
    package convenience init(counter label: String, dimension: String, factory: any MetricsFactory) {
        self.init { Counter(label: label, dimensions: [(dimension, $0)], factory: factory) }
    }
}
