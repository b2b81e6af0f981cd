public import Prometheus
import WOPIStorage

/// Where a deployment serves its metrics in Prometheus's text format, and the registry they are kept in.
///
/// The endpoint takes no token: put it where only your Prometheus reaches it. ``listener(host:port:registry:)``
/// serves it on an address of its own (loopback or an internal interface), apart from the public one;
/// ``path(_:registry:)`` serves it beside WOPI on the main listener, for a deployment whose proxy keeps that path
/// private. The metrics hold operation names, status codes and counts, never an item ID, a user name or a token
/// (Docs/operations.md lists them).
///
/// ```swift
/// configuration.metrics = .listener(host: "10.0.0.5", port: 9464)
/// MetricsSystem.bootstrap(configuration.metrics!.factory)  // optional: libraries' metrics in the same registry
/// ```
public struct MetricsEndpoint: Sendable {
    /// Where the endpoint is served.
    public enum Place: Sendable, Equatable {
        /// `GET PATH` on the deployment's own listener.
        case path(String)
        /// `GET /metrics` on a listener of its own.
        case listener(host: String, port: Int)
    }

    /// Where the endpoint is served.
    public var place: Place
    /// The registry the endpoint shows; ``factory`` records into it.
    public var registry: PrometheusCollectorRegistry

    /// The endpoint at `path` of the deployment's listener.
    public static func path(_ path: String = "/metrics", registry: PrometheusCollectorRegistry = .init())
        -> MetricsEndpoint
    {
        MetricsEndpoint(place: .path(path), registry: registry)
    }

    /// The endpoint at `/metrics` of a listener of its own on `host:port` (`0` picks a free port, logged at start).
    public static func listener(host: String = "127.0.0.1", port: Int, registry: PrometheusCollectorRegistry = .init())
        -> MetricsEndpoint
    {
        MetricsEndpoint(place: .listener(host: host, port: port), registry: registry)
    }

    /// A swift-metrics factory recording into ``registry``, with request-latency buckets around Microsoft's 1.5 s
    /// target for a host's answers. The deployment records its own metrics through it; bootstrap `MetricsSystem`
    /// with it to add those of the libraries underneath (Hummingbird, postgres-nio).
    public var factory: PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[WOPIMetricName.requestDuration] = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(1500), .milliseconds(2500),
            .seconds(5), .seconds(10),
        ]
        return factory
    }

    /// The exposition, as Prometheus scrapes it.
    var text: String { registry.emitToString() }
}
