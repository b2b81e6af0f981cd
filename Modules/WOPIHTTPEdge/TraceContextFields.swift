package import HTTPTypes
import Tracing

/// Reads trace context (`traceparent`, `tracestate`, or whatever the process's propagator uses) from HTTP fields:
/// how a host joins the trace of the editor that called it.
package struct HTTPFieldsExtractor: Extractor {
    package init() {}

    package func extract(key: String, from headers: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { headers[$0] }
    }
}

/// Writes trace context into HTTP fields: how a client's request carries its span to the host (W3C `traceparent`
/// with swift-otel's propagator).
package struct HTTPFieldsInjector: Injector {
    package init() {}

    package func inject(_ value: String, forKey key: String, into headers: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        headers[name] = value
    }
}
