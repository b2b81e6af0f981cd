import Foundation
import Logging
import Synchronization
import Testing
import WOPITelemetry
import WOPITestSupport

/// No value from a request writes a log line of its own, and no configured secret reaches the log.
@Suite struct LogInjectionTests {
    /// Every event its handlers are given.
    final class Sink: Sendable {
        private let recorded = Mutex<[LogEvent]>([])
        var events: [LogEvent] { recorded.withLock { $0 } }
        func record(_ event: LogEvent) { recorded.withLock { $0.append(event) } }
    }

    /// Hands each event to its sink, as it is.
    struct RecordingHandler: LogHandler {
        let sink: Sink
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { sink.record(event) }
    }

    @Test("control characters are escaped in the message, metadata keys and values, nested ones too; secrets redacted")
    func sanitizingHandler() throws {
        let sink = Sink()
        var logger = Logger(label: "test") { _ in
            SanitizingLogHandler(wrapping: RecordingHandler(sink: sink), redacting: ["Bearer s3cr3t", "ab"])
        }
        logger[metadataKey: "own\n"] = "x\u{2028}y"
        logger.info(
            "user\nFORGED line\r\t\u{1B}[31m \\n",
            metadata: [
                "path": "/wopi/files/a\nFORGED", "list": ["a\u{85}b", "Bearer s3cr3t"],
                "nested": ["k\u{7F}": "authorization=Bearer s3cr3t"], "short": "ab",
            ])
        let event = try #require(sink.events.first)
        #expect(event.message.description == #"user\nFORGED line\r\t\u{1b}[31m \\n"#)
        let metadata = try #require(event.metadata)
        #expect(metadata["path"] == #"/wopi/files/a\nFORGED"#)
        #expect(metadata[#"own\n"#] == #"x\u{2028}y"#)
        #expect(metadata["list"] == [#"a\u{85}b"#, "[redacted]"])
        #expect(metadata["nested"] == [#"k\u{7f}"#: "authorization=[redacted]"])
        #expect(metadata["short"] == "ab", "a secret shorter than 4 characters is not redacted")
        #expect(
            OTLPTracing.secrets(in: ["OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20abc1, x-team = t42 "])
                == ["Bearer%20abc1", "Bearer abc1", "t42", "t42"])
    }

    @Test("a user name and a WOPI path with line breaks stay on one line of wopi-host's log, at debug")
    func requestValuesCannotForgeLines() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(
            executable: HostProcess.executable,
            arguments: ["serve", "--demo", "--data", directory.url.path, "--port", "0", "--log-level", "debug"],
            dataDirectory: directory.url)
        let typed = "nobody-\(UInt32.random(in: 0...UInt32.max))"
        try await host.serving { url in
            let form = try await HostSecurityTests.signInForm(url)
            let reply = try await HostSecurityTests.signIn(
                url, "\(typed)%0AFORGED-NAME%20warning%20: admin signed in", "Winter2026", form: form)
            #expect(reply.status == 401)
            _ = try await HTTP.get(url + "/wopi/files/abc%0AFORGED-PATH%20error?access_token=x")
            _ = try await HTTP.get(url + "/files%0D%0AFORGED-PAGE")
        }
        let lines = host.printed.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("FORGED") || $0.hasPrefix("\rFORGED") }, "\(host.printed)")
        #expect(!host.printed.contains(typed), "the name as typed is never logged")
        #expect(host.printed.contains("account:unknown"), "the failure is logged, under no name: \(host.printed)")
    }
}
