import Foundation

/// Your app's answer to an ``AppToAppSignInRequest`` (Docs/wopi-protocol.md §10.2, §10.5).
///
/// - iOS: open ``iOSURL(scheme:)`` (scheme from ``AppToAppSignInRequest/returnScheme``), for example
///   `ms-word-tp:code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff&sc=xyz&action=…`.
/// - Android: put ``queryString`` under every name in ``AndroidAppToAppExtras/responseURLQueryParamsNames`` and
///   the signed-in user under ``AndroidAppToAppExtras/userID``, then `setResult(RESULT_OK, intent)`.
///
/// Values are percent-encoded (everything outside RFC 3986's unreserved characters).
public struct AppToAppSignInResponse: Sendable, Hashable {
    /// Success or failure.
    public enum Outcome: Sendable, Hashable {
        /// The user signed in. `tokenIssuanceURI` (`tk`) replaces the challenge's token endpoint; `sessionContext`
        /// (`sc`) comes back as `X-WOPI-SessionContext`.
        case authorized(code: String, tokenIssuanceURI: String? = nil, sessionContext: String? = nil)
        /// Sign-in failed or was cancelled: an RFC 6749 error code such as `access_denied`, and a description.
        case failed(error: String, description: String? = nil)
    }

    /// Success or failure.
    public var outcome: Outcome
    /// The request's `state`, returned unchanged when it had one.
    public var state: String?
    /// The request's `action` (iOS), returned unchanged.
    public var action: String?

    /// Creates a response.
    public init(outcome: Outcome, state: String? = nil, action: String? = nil) {
        self.outcome = outcome
        self.state = state
        self.action = action
    }

    /// Creates the response to `request`, copying its `state` and `action`.
    public init(answering request: AppToAppSignInRequest, outcome: Outcome) {
        self.init(outcome: outcome, state: request.state, action: request.action)
    }

    /// The parameters in wire order.
    var pairs: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        switch outcome {
        case .authorized(let code, let tk, let sc):
            pairs.append(("code", code))
            if let tk { pairs.append(("tk", tk)) }
            if let sc { pairs.append(("sc", sc)) }
        case .failed(let error, let description):
            pairs.append(("error", error))
            if let description { pairs.append(("error_description", description)) }
        }
        if let state { pairs.append(("state", state)) }
        if let action { pairs.append(("action", action)) }
        return pairs
    }

    /// The query string (`code=…&tk=…&sc=…`, or `error=…&error_description=…`), plus `state` and `action` when
    /// set; on Android leave `action` unset.
    public var queryString: String {
        PercentEncoding.encodePairs(pairs)
    }

    /// The iOS "Back" URL: `<scheme>:<query string>`.
    public func iOSURL(scheme: String) -> String {
        scheme + ":" + queryString
    }

    /// Reads a response query string, or an iOS "Back" URL (`ms-word-tp:code=…`).
    ///
    /// - Throws: ``WOPIFormatError`` when a value is badly encoded or neither `code` nor `error` is present.
    public init(parsing text: String) throws(WOPIFormatError) {
        let format = "app-to-app sign-in response"
        var query = Substring(text.trimmingWhiteSpace())
        if let colon = query.firstIndex(of: ":"), !query[..<colon].contains("=") {
            query = query[query.index(after: colon)...]
        }
        guard let pairs = PercentEncoding.decodePairs(query) else {
            throw WOPIFormatError(
                .invalidValue, format: format,
                "A parameter has a '%' that is not followed by two "
                    + "hex digits of UTF-8.")
        }
        func value(_ name: String) -> String? { pairs.first { $0.name.lowercased() == name }?.value }
        let outcome: Outcome
        if let code = value("code") {
            outcome = .authorized(code: code, tokenIssuanceURI: value("tk"), sessionContext: value("sc"))
        } else if let error = value("error") {
            outcome = .failed(error: error, description: value("error_description"))
        } else {
            throw WOPIFormatError(.missingField, format: format, "Neither 'code' nor 'error' is present.")
        }
        self.init(outcome: outcome, state: value("state"), action: value("action"))
    }
}
