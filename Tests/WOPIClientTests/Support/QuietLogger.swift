import Logging

extension Logger {
    /// A logger for tests: warnings and worse only.
    static var quiet: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }
}
