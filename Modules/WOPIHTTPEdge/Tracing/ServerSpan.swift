import HTTPTypes
package import Tracing

/// Runs `answer` in a server span `name` of the process's tracer, a child of the trace context `request` carries
/// (`traceparent` with a W3C propagator such as swift-otel's), and records the method and the status on it (a
/// `5xx` marks it failed). The WOPI host and the OAuth server answer every request in one.
package func withServerSpan(
    _ name: String, for request: WOPIRequest, _ answer: (any Span) async -> WOPIResponse
) async -> WOPIResponse {
    let instrument = InstrumentationSystem.instrument
    guard TracedWork.records(with: instrument) else {
        return await answer(NoOpTracer.NoOpSpan(context: InstrumentationContext.current ?? .topLevel))
    }
    var context = InstrumentationContext.current ?? .topLevel
    instrument.extract(request.headers, into: &context, using: HTTPFieldsExtractor())
    return await withSpan(name, context: context, ofKind: .server) { span in
        let response = await answer(span)
        if span.isRecording {
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["http.response.status_code"] = Int(response.status.code)
        }
        if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        return response
    }
}
