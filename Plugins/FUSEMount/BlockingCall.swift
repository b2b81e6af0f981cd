import Foundation

/// Runs a blocking call (a syscall, a child process) on a new thread, so that no Swift concurrency thread waits
/// on the kernel while the same process may be serving the FUSE requests that call needs.
func onDedicatedThread<T: Sendable>(
    _ name: String, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = name
        thread.start()
    }
}
