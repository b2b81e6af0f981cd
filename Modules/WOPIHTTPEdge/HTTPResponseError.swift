public import HTTPTypes
public import Logging

/// An error that knows how to answer the request it failed: its status, headers and body for a program, and what
/// a page says to a person.
///
/// Every error a WOPIKit endpoint throws on purpose conforms (``WOPIHTTPError``, `StorageError`, the policy's
/// `ContentVeto`, discovery's errors, the authorization server's OAuth errors and sign-in refusals), and
/// ``WOPIResponse/init(answering:to:page:unexpected:logger:metadata:)`` is the one place that turns a thrown error
/// into a response: a page for a person at a page endpoint, the error's own response otherwise. A provider's own
/// errors conform to answer with their own status; any other error is a 500 that names only its type.
public protocol HTTPResponseError: Error, Sendable {
    /// The response that answers a program (a WOPI client, an OAuth client, `curl`).
    var response: WOPIResponse { get }

    /// What a page says to a person, with the status and headers of ``response``; `nil` when the error answers a
    /// person as it answers a program (an OAuth error keeps OAuth's format everywhere). The default names the status
    /// and says what to do in words a person reads (``ErrorPageMessage/init(status:)``).
    var pageMessage: ErrorPageMessage? { get }
}

extension HTTPResponseError {
    public var pageMessage: ErrorPageMessage? { ErrorPageMessage(status: response.status) }
}

/// What an error page says: a title and a sentence.
public struct ErrorPageMessage: Sendable, Hashable {
    /// The page's title, such as "Not found".
    public var title: String
    /// What happened and what to do.
    public var text: String

    /// A message of your own.
    public init(title: String, _ text: String) {
        self.title = title
        self.text = text
    }

    /// The words for `status`: "Not found" for a 404, "Not allowed" for a 401 or 403, "Busy" for a 429 or 503, and
    /// so on; "Error" for a status without words of its own.
    public init(status: HTTPResponse.Status) {
        switch status.code {
        case 400: self.init(title: "Cannot do this", "The request cannot be answered as it was sent.")
        case 401, 403: self.init(title: "Not allowed", "You may not do this.")
        case 404: self.init(title: "Not found", "No such page or file.")
        case 409: self.init(title: "Changed meanwhile", "It changed meanwhile. Reload the page and try again.")
        case 413: self.init(title: "Too large", "It is larger than this host takes.")
        case 429, 503: self.init(title: "Busy", "The host is busy. Try again in a moment.")
        case 500...599: self.init(title: "Error", "The host failed. Try again later.")
        default: self.init(title: "Error", "The request failed (\(status.code)).")
        }
    }
}

extension WOPIResponse {
    /// The answer to `request`, which failed with `error`, chosen from what was asked.
    ///
    /// - When `page` is given (the endpoint answers people: sign-in, the host pages) and the request accepts HTML
    ///   (a browser's `Accept`, or none), `page` draws the error's ``HTTPResponseError/pageMessage`` at the error's
    ///   status, and the page carries the error's headers that it does not set itself (such as `Retry-After`).
    /// - Otherwise the error's own ``HTTPResponseError/response``.
    /// - An error that is no ``HTTPResponseError`` goes to `logger` at error level, never to the client, and is
    ///   answered as `unexpected` (a 500 that names only the error's type unless the endpoint has an answer of its
    ///   own, such as OAuth's `server_error`).
    public init(
        answering error: any Error, to request: WOPIRequest? = nil,
        page: (@Sendable (HTTPResponse.Status, ErrorPageMessage) -> WOPIResponse)? = nil,
        unexpected: (any HTTPResponseError)? = nil, logger: Logger, metadata: Logger.Metadata = [:]
    ) {
        let answer: any HTTPResponseError
        if let error = error as? any HTTPResponseError {
            answer = error
        } else {
            var metadata = metadata
            metadata["error"] = "\(error)"
            logger.error("Request failed", metadata: metadata)
            answer = unexpected ?? WOPIHTTPError(.internalServerError, "The host failed: \(type(of: error)).")
        }
        let response = answer.response
        guard let page, let message = answer.pageMessage, request.map(Self.acceptsHTML) ?? true else {
            self = response
            return
        }
        self = page(response.status, message)
        for field in response.headers
        where self.headers[field.name] == nil && field.name != .contentType && field.name != .contentLength {
            self.headers.append(field)
        }
    }

    /// Whether `request` takes an HTML answer: it sends no `Accept`, or one that names `text/html` or `*/*`.
    private static func acceptsHTML(_ request: WOPIRequest) -> Bool {
        guard let accept = request.headers[.accept] else { return true }
        return accept.contains("text/html") || accept.contains("*/*")
    }
}
