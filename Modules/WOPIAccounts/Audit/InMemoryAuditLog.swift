import Synchronization

/// An ``AuditLog`` in memory, for tests and a host whose audit trail ends with the process.
public final class InMemoryAuditLog: AuditLog {
    private let recorded = Mutex<[AuditEvent]>([])

    /// An empty log.
    public init() {}

    public func record(_ event: AuditEvent) {
        recorded.withLock { $0.append(event) }
    }

    public func events(matching query: AuditQuery) -> [AuditEvent] {
        recorded.withLock { $0.filter { $0.matches(query) } }
    }
}
