import Logging

/// A logger at warning level, so expected rejections in tests do not clutter the output.
let quietLogger: Logger = {
    var logger = Logger(label: "WOPIOAuthTests")
    logger.logLevel = .warning
    return logger
}()
