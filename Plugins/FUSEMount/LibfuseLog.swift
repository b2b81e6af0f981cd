import CFuse3Shim
import Logging
import NIOConcurrencyHelpers

/// Sends libfuse's own log lines to swift-log (label `wopikit.fuse.libfuse`).
enum LibfuseLog {
    private static let logger = Logger(label: "wopikit.fuse.libfuse")
    private static let installed = NIOLockedValueBox(false)

    /// Installs the handler once per process.
    static func install() {
        let first = installed.withLockedValue { installed in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        wopikit_fuse_set_log_handler { level, message in
            guard let message else { return }
            let text = String(cString: message)
            // enum fuse_log_level: 0 emerg ... 3 err, 4 warning, 5 notice, 6 info, 7 debug.
            switch level {
            case ...3: LibfuseLog.logger.error("\(text)")
            case 4: LibfuseLog.logger.warning("\(text)")
            case 5...6: LibfuseLog.logger.info("\(text)")
            default: LibfuseLog.logger.debug("\(text)")
            }
        }
    }
}
