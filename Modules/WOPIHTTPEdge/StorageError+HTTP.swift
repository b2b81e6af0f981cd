import HTTPTypes
public import WOPIFoundation

extension StorageError: HTTPResponseError {
    /// The WOPI status of a storage failure: 404 for a missing item, 409 for a conflict, 400 for a bad name, 401 for
    /// a refusal (WOPI's "no permission"), 501 for what the backend cannot do, 413 for a body over a limit, 503
    /// (with `Retry-After`) while it is busy or away, else 500; the message goes into `X-WOPI-ServerError`.
    public var response: WOPIResponse { httpError.response }

    private var httpError: WOPIHTTPError {
        switch code {
        case .notFound, .notAFile, .notAContainer: .notFound(message)
        case .nameConflict, .notEmpty, .versionMismatch: WOPIHTTPError(.conflict, message)
        case .invalidName: .badRequest(message)
        case .permissionDenied: .unauthorized(message)
        case .unsupported, .crossContainerMove: .notImplemented(message)
        case .tooLarge: WOPIHTTPError(.contentTooLarge, message)
        case .busy: WOPIHTTPError(.serviceUnavailable, message, headers: [.retryAfter: "1"])
        case .unavailable: WOPIHTTPError(.serviceUnavailable, message, headers: [.retryAfter: "2"])
        default: WOPIHTTPError(.internalServerError, message)
        }
    }
}
