import Foundation
import Synchronization

/// What a child process prints on a pipe, collected as it arrives by the pipe's readability handler (on one of
/// Foundation's threads), so a test can poll it without a blocking read of its own.
final class ProcessOutput: Sendable {
    private let text = Mutex("")

    /// Collects everything `pipe` carries from now until its end.
    init(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                return
            }
            text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
    }

    /// Everything printed so far.
    var printed: String { text.withLock { $0 } }
}
