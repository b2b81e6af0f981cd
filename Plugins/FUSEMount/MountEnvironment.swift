import Logging
import WOPIStorage

/// What every part of one mount shares: the backend, the lock store, the configuration and the logger.
struct MountEnvironment: Sendable {
    let backend: any StorageBackend
    let lockStore: any LockStore
    let configuration: FUSEMount.Configuration
    let logger: Logger

    /// The time limit of one backend operation.
    var timeout: Duration { configuration.operationTimeout }

    /// Runs `operation` bounded by the operation timeout (see ``withDeadline(_:_:)``).
    func bounded<T: Sendable>(_ operation: @escaping @Sendable (Watchdog) async throws -> T) async throws -> T {
        try await withDeadline(timeout, operation)
    }
}
