public import HTTPTypes
public import WOPIHTTPEdge

/// Thrown by ``ChangeGuard/willChange(_:by:)`` to refuse a change: the host answers `status` with `message` in
/// `X-WOPI-ServerError`, and changes nothing.
///
/// ```swift
/// func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
///     if case .putFile(_, let details) = change, let size = details.size, size > quota.remaining(user) {
///         throw ContentVeto.tooLarge("\(user.displayName)'s storage quota is used up; delete files or upgrade.")
///     }
/// }
/// ```
public struct ContentVeto: HTTPResponseError, CustomStringConvertible {
    /// The HTTP status of the answer.
    public var status: HTTPResponse.Status
    /// What the user or their administrator can do about it; sent in `X-WOPI-ServerError` and logged.
    public var message: String

    /// Creates a veto with any status.
    public init(status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// 401: the user may not make this change (the status WOPI clients read as "no permission").
    public static func refused(_ message: String) -> ContentVeto { ContentVeto(status: .unauthorized, message) }
    /// 413: the content is too large (a quota, a size limit).
    public static func tooLarge(_ message: String) -> ContentVeto { ContentVeto(status: .contentTooLarge, message) }
    /// 409: the change conflicts with the item's state (for PutFile, clients read 409 as a lock or version conflict).
    public static func conflict(_ message: String) -> ContentVeto { ContentVeto(status: .conflict, message) }

    public var description: String { "\(status.code): \(message)" }

    /// The answer: ``status`` with ``message`` in `X-WOPI-ServerError`.
    public var response: WOPIResponse { WOPIHTTPError(status, message).response }

    /// What a page says: "Not allowed" and ``message``.
    public var pageMessage: ErrorPageMessage? { ErrorPageMessage(title: "Not allowed", message) }
}
