public import Logging

/// A `LogHandler` that makes every line safe to read before another handler writes it: control characters in the
/// message and in every metadata value are escaped, and configured secrets are replaced by `[redacted]`.
///
/// A value from a request (a user name, a path with `%0A`, a header) can hold a line break; a text log that writes
/// it as it is lets the sender write a line of their choosing. Here a line break becomes `\n`, a tab `\t`, any other
/// control character (C0, DEL, C1, U+2028 and U+2029) `\u{…}`, and a backslash `\\`, so each event stays one line
/// and an escape cannot be faked. Secrets are values the process knows but must never print, such as the headers of
/// `OTEL_EXPORTER_OTLP_HEADERS` (``OTLPTracing/secrets(in:)``), which swift-otel's diagnostics would otherwise show.
///
/// Install it once per process, before anything logs:
///
/// ```swift
/// SanitizingLogHandler.bootstrap(redacting: OTLPTracing.secrets(in: ProcessInfo.processInfo.environment))
/// ```
public struct SanitizingLogHandler: LogHandler {
    /// The handler that writes the sanitized events.
    public var wrapped: any LogHandler
    /// The values replaced by `[redacted]` wherever they appear.
    public let secrets: [String]
    /// This handler's own metadata, sanitized with the event's.
    public var metadata: Logger.Metadata = [:]
    /// Adds contextual metadata to each event, sanitized with the rest.
    public var metadataProvider: Logger.MetadataProvider?

    /// Sanitizes what `wrapped` writes; `secrets` shorter than 4 characters are ignored (they would redact ordinary
    /// words). This handler keeps `wrapped`'s metadata as its own; give `wrapped` no metadata provider, or what it
    /// adds is not sanitized.
    public init(
        wrapping wrapped: any LogHandler, redacting secrets: [String] = [],
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        var inner = wrapped
        inner.metadata = [:]
        self.wrapped = inner
        self.metadata = wrapped.metadata
        self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
        self.metadataProvider = metadataProvider
    }

    /// Bootstraps `LoggingSystem` with swift-log's default lines on standard error, sanitized (call it once, first
    /// thing in `main`).
    public static func bootstrap(redacting secrets: [String] = []) {
        LoggingSystem.bootstrap(
            { label, provider in
                SanitizingLogHandler(
                    wrapping: StreamLogHandler.standardError(label: label), redacting: secrets,
                    metadataProvider: provider)
            }, metadataProvider: nil)
    }

    /// The level below which events are dropped.
    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    /// One metadata value of this handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` through ``wrapped``, sanitized.
    public func log(event: LogEvent) {
        var event = event
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        event.message = Logger.Message(stringLiteral: clean(event.message.description))
        event.metadata = merged.isEmpty ? nil : merged.reduce(into: [:]) { $0[clean($1.key)] = clean($1.value) }
        wrapped.log(event: event)
    }

    private func clean(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(clean(text))
        case .stringConvertible(let convertible): .string(clean(convertible.description))
        case .array(let values): .array(values.map(clean))
        case .dictionary(let values): .dictionary(values.reduce(into: [:]) { $0[clean($1.key)] = clean($1.value) })
        }
    }

    private func clean(_ text: String) -> String {
        var text = LogEscaping.escape(text)
        for secret in secrets where text.contains(secret) {
            text = text.replacing(secret, with: "[redacted]")
        }
        return text
    }
}

/// How ``SanitizingLogHandler`` writes a value on one line.
public enum LogEscaping {
    /// `text` with every backslash doubled and every control character escaped: `\n`, `\r`, `\t`, or `\u{XX}` for
    /// the rest of C0, DEL, C1, U+2028 and U+2029.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where needsEscape(scalar): escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029 || scalar == "\\"
    }
}
