import Hummingbird
import Logging
import NIOCore
import Synchronization
import WOPITestSupport

/// An OTLP/HTTP trace receiver on 127.0.0.1 (`POST /v1/traces`, `application/x-protobuf`), as an OpenTelemetry
/// collector is to an exporter: it keeps each export's bytes and answers an empty `ExportTraceServiceResponse`.
final class OTLPReceiver: Sendable {
    private let received = Mutex<[[UInt8]]>([])

    /// The export requests received so far, as sent.
    var payloads: [[UInt8]] { received.withLock { $0 } }

    /// Every span received so far, decoded.
    func spans() throws -> [OTLPSpan] { try payloads.flatMap { try OTLPSpan.decode($0) } }

    /// Runs `body` with a receiver listening and its endpoint (`http://127.0.0.1:PORT`, for
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`), then stops it.
    static func run<T: Sendable>(_ body: (OTLPReceiver, String) async throws -> T) async throws -> T {
        let receiver = OTLPReceiver()
        let router = Router()
        router.post("/v1/traces") { request, _ in
            guard request.headers[.contentType] == "application/x-protobuf" else {
                return Response(status: .unsupportedMediaType)
            }
            let body = try await request.body.collect(upTo: 16 << 20)
            receiver.received.withLock { $0.append(Array(body.readableBytesView)) }
            return Response(
                status: .ok, headers: [.contentType: "application/x-protobuf"],
                body: ResponseBody(byteBuffer: ByteBuffer()))
        }
        var logger = Logger(label: "otlp-receiver")
        logger.logLevel = .warning
        return try await LoopbackServer.run(router, logger: logger) { url in try await body(receiver, url) }
    }
}
