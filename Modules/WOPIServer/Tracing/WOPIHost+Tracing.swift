import HTTPTypes
import Tracing
import WOPIHTTPEdge
import WOPIModels

extension WOPIHost {
    /// Collabora Online's `X-COOL-WOPI-ServerId`: which of its servers sent the request.
    static let collaboraServerID = HTTPField.Name("X-COOL-WOPI-ServerId")!

    /// The WOPI attributes of a request's span, set only when the span records: the operation's item, and the
    /// correlation IDs of Office (`X-WOPI-CorrelationID`) and Collabora (`X-COOL-WOPI-ServerId`); ``withServerSpan``
    /// adds the method and the status. Never a token or a query string.
    static func describe(_ span: any Span, request: WOPIRequest, resource: AccessToken.Resource?) {
        guard span.isRecording else { return }
        span.updateAttributes { attributes in
            attributes["wopi.operation"] = span.operationName
            attributes["wopi.item_id"] = resource?.itemID
            attributes["wopi.correlation_id"] = request.headers[.wopiCorrelationID]
            attributes["cool.server_id"] = request.headers[Self.collaboraServerID]
        }
    }
}
