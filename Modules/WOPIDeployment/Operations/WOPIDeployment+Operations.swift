import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import WOPIServer
import WOPIServerHummingbird

extension WOPIDeployment {
    /// `GET /healthz` (and `/health`): the process answers. `GET /readyz`: every ``ReadinessCheck`` passes (`200
    /// ready`), or one fails (`503 not ready`, the reason in the log only). Neither takes a token or says more.
    func addProbes(to router: Router<WOPIRequestContext>) {
        router.get("healthz") { _, _ in Self.probeAnswer(.ok, "ok") }
        router.get("health") { _, _ in Self.probeAnswer(.ok, "ok") }
        let readiness = readiness
        router.get("readyz") { _, _ in
            await readiness.isReady()
                ? Self.probeAnswer(.ok, "ready") : Self.probeAnswer(.serviceUnavailable, "not ready")
        }
    }

    /// `GET path`: the metrics of `endpoint` in Prometheus's text format, the lock gauge read just before.
    func addMetrics<Context: RequestContext>(_ endpoint: MetricsEndpoint, at path: String, to router: Router<Context>) {
        let activeLocks = ActiveLocksGauge(locks: stores.locks, factory: metricsFactory)
        router.get(RouterPath(path)) { _, _ in
            await activeLocks.refresh()
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: endpoint.text)))
        }
    }

    /// The listener of its own that ``Configuration/metrics`` asks for, as a service; none when the metrics are
    /// served on a path or not at all.
    func metricsListener() -> [any Service] {
        guard let endpoint = configuration.metrics, case .listener(let host, let port) = endpoint.place else {
            return []
        }
        let router = Router()
        addMetrics(endpoint, at: "/metrics", to: router)
        let logger = logger
        return [
            Application(
                router: router,
                configuration: .init(address: .hostname(host, port: port), serverName: configuration.serverName),
                onServerRunning: { channel in
                    let url =
                        "http://\(host.contains(":") ? "[\(host)]" : host):\(channel.localAddress?.port ?? port)/metrics"
                    logger.notice("Serving metrics", metadata: ["url": "\(url)"])
                },
                logger: logger)
        ]
    }

    /// A service that, once the server has stopped, waits for the audit log to write the events it still queues
    /// (the opens it was handed without waiting); none without an audit log.
    func auditFlush() -> [any Service] {
        stores.audit.map { [AuditFlush(log: $0)] } ?? []
    }

    private static func probeAnswer(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// Flushes an audit log at shutdown (`WOPIDeployment.auditFlush()`).
private struct AuditFlush: Service {
    let log: any AuditLog

    func run() async {
        // Cancelled instead of shut down gracefully: flush all the same.
        try? await gracefulShutdown()
        await log.flush()
    }
}
