import NIOPosix

extension NIOThreadPool {
    /// Runs blocking work (file I/O, `flock`, `fsync`) on this pool, off Swift's cooperative threads.
    ///
    /// A ``POSIXFailure`` thrown by `body` becomes a ``StorageError`` that names `what`; other errors pass through.
    ///
    /// - Throws: ``StorageError/Code/io`` when the pool is shut down.
    package func runBlocking<T: Sendable>(_ what: @autoclosure () -> String, _ body: @escaping @Sendable () throws -> T)
        async throws
        -> T
    {
        do {
            return try await runIfActive(body)
        } catch let failure as POSIXFailure {
            throw StorageError(failure, what())
        } catch let error as NIOThreadPoolError.ThreadPoolInactive {
            throw StorageError(.io, "\(what()): the thread pool for blocking file I/O is shut down.", underlying: error)
        }
    }
}
