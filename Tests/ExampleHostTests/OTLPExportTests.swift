import Foundation
import Testing
import WOPITestSupport

/// `wopi-host serve` exports its spans over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (Docs/operations.md,
/// "Traces"): a CheckFileInfo that carries an editor's `traceparent` arrives at a real receiver as a server span of
/// that trace, a child of the editor's span, with the WOPI attributes, and with its storage and database work as
/// its children.
@Suite struct OTLPExportTests {
    @Test("a CheckFileInfo with a traceparent is exported as a child of the caller's span, with its attributes")
    func checkFileInfoArrivesAsAChildSpan() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await OTLPReceiver.run { receiver, endpoint in
            let host = try HostProcess(
                executable: HostProcess.executable,
                arguments: ["serve", "--demo", "--data", directory.url.path, "--port", "0", "--log-level", "warning"],
                dataDirectory: directory.url,
                environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_BSP_SCHEDULE_DELAY": "100"])
            let traceID = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            let editorSpan = "00f067aa0ba902b7"
            let minted = try await host.serving { _ in
                let minted = try await HostProcess.token(data: directory.url, file: "Notes.txt")
                let reply = try await HTTP.get(
                    "\(minted.wopiSrc)?access_token=\(minted.accessToken)",
                    headers: [
                        "traceparent": "00-\(traceID)-\(editorSpan)-01", "X-WOPI-CorrelationID": "corr-26",
                        "X-COOL-WOPI-ServerId": "cool-1",
                    ])
                #expect(reply.status == 200)
                let arrived = try await Polling.until {
                    (try? receiver.spans())?.contains { $0.traceID == traceID && $0.name == "CheckFileInfo" } == true
                }
                #expect(arrived, "no CheckFileInfo span of the trace reached the receiver:\n\(host.printed)")
                return minted
            }

            let spans = try receiver.spans().filter { $0.traceID == traceID }
            let request = try #require(spans.first { $0.name == "CheckFileInfo" })
            #expect(request.kind == 2, "a server span")
            #expect(request.parentSpanID == editorSpan, "a child of the editor's span")
            #expect(request.serviceName == "wopi-host")
            let itemID = try #require(minted.wopiSrc.split(separator: "/").last.map(String.init))
            #expect(request.attributes["wopi.operation"] == .string("CheckFileInfo"))
            #expect(request.attributes["wopi.item_id"] == .string(itemID))
            #expect(request.attributes["wopi.correlation_id"] == .string("corr-26"))
            #expect(request.attributes["cool.server_id"] == .string("cool-1"))
            #expect(request.attributes["http.response.status_code"] == .int(200))
            let children = spans.filter { $0.parentSpanID == request.spanID }
            // The SQLite deployment reads the user, the item and the shares in one statement (SQLiteAuthorizationReader).
            let authorization = try #require(children.first { $0.name == "database.authorization" }, "\(children)")
            #expect(authorization.attributes["wopi.item_id"] == .string(itemID))
            #expect(children.allSatisfy { $0.kind == 1 && $0.attributes["wopikit.work"] != nil })
            for payload in receiver.payloads {
                #expect(!String(decoding: payload, as: UTF8.self).contains(minted.accessToken))
            }
        }
    }
}
