import HTTPTypes
public import Logging

/// An error that knows how to answer the request it failed: its status, headers and body.
///
/// Every error a WOPIKit endpoint throws on purpose conforms (``WOPIHTTPError``, `StorageError`, the policy's
/// `ContentVeto`, the authorization server's OAuth errors), and ``WOPIResponse/init(answering:logger:metadata:)`` is the one
/// place that turns a thrown error into a response. A provider's own errors conform to answer with their own
/// status; any other error is a 500 that names only its type.
public protocol HTTPResponseError: Error, Sendable {
    /// The response that answers the failed request.
    var response: WOPIResponse { get }
}

extension WOPIResponse {
    /// The answer to a request that failed with `error`: the error's own ``HTTPResponseError/response``, or a 500
    /// whose message names only the error's type (the error itself goes to `logger`, at error level, never to the
    /// client).
    public init(answering error: any Error, logger: Logger, metadata: Logger.Metadata = [:]) {
        if let error = error as? any HTTPResponseError {
            self = error.response
            return
        }
        var metadata = metadata
        metadata["error"] = "\(error)"
        logger.error("Request failed", metadata: metadata)
        self = WOPIHTTPError(.internalServerError, "The host failed: \(type(of: error)).").response
    }
}
