import Logging
import WOPIStorage

/// What every part of one mount shares: the backend, the lock store, the configuration, the logger and the
/// directory cache.
struct MountEnvironment: Sendable {
    let backend: any StorageBackend
    let lockStore: any LockStore
    let configuration: FUSEMount.Configuration
    let logger: Logger
    let directoryCache: DirectoryCache

    init(backend: any StorageBackend, lockStore: any LockStore, configuration: FUSEMount.Configuration, logger: Logger)
    {
        self.backend = backend
        self.lockStore = lockStore
        self.configuration = configuration
        self.logger = logger
        self.directoryCache = DirectoryCache(ttl: configuration.directoryCacheTTL)
    }

    /// The time limit of one backend operation.
    var timeout: Duration { configuration.operationTimeout }

    /// The clock that times deadlines and lock refreshes.
    var clock: any Clock<Duration> { configuration.clock }

    /// Runs `operation` bounded by the operation timeout (see ``withDeadline(_:clock:_:onAbandoned:)``).
    func bounded<T: Sendable>(_ operation: @escaping @Sendable (Watchdog) async throws -> T) async throws -> T {
        try await withDeadline(timeout, clock: clock, operation)
    }
}
