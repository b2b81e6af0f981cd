import UnixSignals

extension FUSEMount {
    /// Mounts, serves, and unmounts cleanly (pending uploads first) on the first SIGINT or SIGTERM; also returns
    /// when the file system is unmounted from outside (`fusermount3 -u`). What a command-line tool calls.
    ///
    /// - Parameter onMounted: called once the mount is usable, for example to print where it is.
    /// - Throws: what ``mount()`` or ``unmount()`` throw.
    public func runUntilTerminated(onMounted: @Sendable () -> Void = {}) async throws {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        try await mount()
        onMounted()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.run() }
            group.addTask {
                for await _ in signals {
                    try await self.unmount()
                    return
                }
            }
            try await group.next()
            group.cancelAll()
            try await group.waitForAll()
        }
    }
}
