import HTTPTypes
import Tracing

extension WOPIClient {
    /// The attributes of a call's span, set only when the span records: the operation, the item, the method and
    /// the status the host answered. Never a token or a URL (its query holds the access token).
    static func describe(_ span: any Span, _ call: Call, status: Int?) {
        guard span.isRecording else { return }
        span.updateAttributes { attributes in
            attributes["wopi.operation"] = call.name
            attributes["wopi.item_id"] = call.resource.id
            attributes["http.request.method"] = call.method.rawValue
            attributes["http.response.status_code"] = status
        }
    }
}
