/// One challenge of a `WWW-Authenticate` header (RFC 7235 §2.1): a scheme with parameters or a token68.
///
/// ``parseList(_:)`` reads a header value that may hold several challenges, and is tolerant where servers are
/// sloppy: white space around `=` and `,`, unquoted values running up to the next comma (so unquoted URLs work),
/// quoted values with commas and `\"` escapes, and scheme and parameter names in any case.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// One `name=value` parameter, with the value unquoted and unescaped.
    public typealias Parameter = NameValuePair

    /// The authentication scheme as sent, for example `Bearer`.
    public var scheme: String
    /// The parameters in the order sent.
    public var parameters: [Parameter]
    /// The token68 form (`Basic dXNlcg==`), when the challenge has one instead of parameters.
    public var token68: String?

    /// Creates a challenge.
    public init(scheme: String, parameters: [Parameter] = [], token68: String? = nil) {
        self.scheme = scheme
        self.parameters = parameters
        self.token68 = token68
    }

    /// The first value of the parameter called `name`, compared case-insensitively.
    public subscript(parameter name: String) -> String? {
        parameters.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Whether the scheme is `scheme`, compared case-insensitively.
    public func hasScheme(_ scheme: String) -> Bool {
        self.scheme.lowercased() == scheme.lowercased()
    }

    /// Parses a `WWW-Authenticate` header value into its challenges, in order.
    ///
    /// - Throws: ``WOPIFormatError`` (format `WWW-Authenticate`) when a quoted string is not closed, or a
    ///   parameter appears before any scheme, or a parameter has no name.
    public static func parseList(_ headerValue: String) throws(WOPIFormatError) -> [AuthenticationChallenge] {
        var reader = ChallengeReader(headerValue)
        return try reader.readAll()
    }
}
