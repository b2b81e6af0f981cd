import Foundation
import Synchronization

/// An injected `sleep` that only records how long it was asked to wait: no test really sleeps.
final class SleepLog: Sendable {
    private let recorded = Mutex<[Duration]>([])

    /// The delays asked for, in order.
    var delays: [Duration] { recorded.withLock { $0 } }

    /// Records `delay` and returns at once.
    @Sendable func record(_ delay: Duration) async throws {
        recorded.withLock { $0.append(delay) }
    }
}

/// A loopback port nothing listens on: bound, read back and closed.
enum ClosedPort {
    static func find() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
