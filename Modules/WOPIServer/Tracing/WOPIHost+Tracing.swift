import HTTPTypes
import Tracing
import WOPIHTTPEdge
import WOPIModels

extension WOPIHost {
    /// Collabora Online's `X-COOL-WOPI-ServerId`: which of its servers sent the request.
    static let collaboraServerID = HTTPField.Name("X-COOL-WOPI-ServerId")!

    /// The attributes of a request's span, set only when the span records: the operation's item, the correlation
    /// IDs of Office (`X-WOPI-CorrelationID`) and Collabora (`X-COOL-WOPI-ServerId`), and the status. Never a token
    /// or a query string.
    static func describe(
        _ span: any Span, request: WOPIRequest, resource: AccessToken.Resource?, response: WOPIResponse
    ) {
        guard span.isRecording else { return }
        span.updateAttributes { attributes in
            attributes["wopi.operation"] = span.operationName
            attributes["wopi.item_id"] = resource?.itemID
            attributes["wopi.correlation_id"] = request.headers[.wopiCorrelationID]
            attributes["cool.server_id"] = request.headers[Self.collaboraServerID]
            attributes["http.request.method"] = request.method.rawValue
            attributes["http.response.status_code"] = Int(response.status.code)
        }
        if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }
}

/// Reads trace context (`traceparent`, `tracestate`, or whatever the process's propagator uses) from request
/// headers.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from headers: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { headers[$0] }
    }
}
