import Foundation

/// What Office asks your app for in app-to-app sign-in (Docs/wopi-protocol.md §10.1, §10.5).
///
/// - iOS: Office opens your scheme with the authorize parameters plus `action`:
///   `contoso:client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word&action=…`
///   (read with ``init(iOSURL:)``).
/// - Android: the `AuthorizeUrlQueryParams` extra holds the same string without `action`, and the optional
///   `UserId` extra the expected user (read with ``init(androidQuery:userID:)``).
///
/// Parameter names are read case-insensitively (Office has sent `Build=` and `Platform=`); values are URL-decoded,
/// with `+` as a space as in HTML forms.
public struct AppToAppSignInRequest: Sendable, Hashable {
    /// One query parameter, decoded.
    public typealias Parameter = NameValuePair

    /// The scheme Office opened (iOS), or `nil` (Android).
    public var scheme: String?
    /// Every parameter in the order received.
    public var parameters: [Parameter]
    /// The expected user from the Android `UserId` extra, if any.
    public var expectedUserID: String?

    /// Creates a request from decoded parameters.
    public init(scheme: String? = nil, parameters: [Parameter], expectedUserID: String? = nil) {
        self.scheme = scheme
        self.parameters = parameters
        self.expectedUserID = expectedUserID
    }

    /// The first value of `name`, compared case-insensitively.
    public subscript(_ name: String) -> String? {
        parameters.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// `client_id`: Office's OAuth client ID.
    public var clientID: String? { self["client_id"] }
    /// `response_type`, normally `code`.
    public var responseType: String? { self["response_type"] }
    /// `redirect_uri`, when sent.
    public var redirectURI: String? { self["redirect_uri"] }
    /// `scope`, when sent.
    public var scope: String? { self["scope"] }
    /// `state`, when sent; return it unchanged.
    public var state: String? { self["state"] }
    /// `rs`: Office's UI culture (`en-US`).
    public var culture: String? { self["rs"] }
    /// `build`: Office's build number.
    public var build: String? { self["build"] }
    /// `platform`: `iOS` or `android`.
    public var platform: String? { self["platform"] }
    /// `app`: which Office app asks (`word`, ...).
    public var app: String? { self["app"] }
    /// `action` (iOS only): an ID to send back unchanged.
    public var action: String? { self["action"] }

    /// The iOS scheme to return to, chosen from `app=` (see ``OfficeApp/returnScheme(forAppParameter:)``).
    public var returnScheme: String { OfficeApp.returnScheme(forAppParameter: app) }

    /// The authorize parameters as a query string (everything but `action`), for forwarding to your sign-in page.
    public var authorizeQuery: String {
        PercentEncoding.encodePairs(parameters.filter { $0.name.lowercased() != "action" }.map { ($0.name, $0.value) })
    }

    /// Reads the "To" URL Office opened on iOS. Accepts `contoso:a=1&…` as in the docs, and also `contoso://?a=1`
    /// or `contoso://host/path?a=1`.
    ///
    /// - Throws: ``WOPIFormatError`` when there is no scheme, a value is badly encoded, or `client_id` or
    ///   `action` is missing.
    public init(iOSURL: String) throws(WOPIFormatError) {
        let format = "app-to-app sign-in URL"
        let text = iOSURL.trimmingWhiteSpace()
        guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else {
            throw WOPIFormatError(.malformed, format: format, "Expected '<your scheme>:client_id=…&action=…'.")
        }
        var query = text[text.index(after: colon)...]
        if let mark = query.firstIndex(of: "?") {
            query = query[query.index(after: mark)...]
        } else if query.hasPrefix("//") {
            query = query.dropFirst(2)
        }
        try self.init(scheme: String(text[..<colon]), query: String(query), expectedUserID: nil, format: format)
        guard action != nil else {
            throw WOPIFormatError(
                .missingField, format: format,
                "The 'action' parameter is missing; Office sends it "
                    + "on iOS and expects it back unchanged.")
        }
    }

    /// Reads the Android `AuthorizeUrlQueryParams` extra (and the optional `UserId` extra).
    ///
    /// - Throws: ``WOPIFormatError`` when a value is badly encoded or `client_id` is missing.
    public init(androidQuery: String, userID: String? = nil) throws(WOPIFormatError) {
        var query = Substring(androidQuery.trimmingWhiteSpace())
        if query.hasPrefix("?") { query = query.dropFirst() }
        try self.init(scheme: nil, query: String(query), expectedUserID: userID, format: "AuthorizeUrlQueryParams")
    }

    private init(scheme: String?, query: String, expectedUserID: String?, format: String) throws(WOPIFormatError) {
        guard let pairs = PercentEncoding.decodePairs(query) else {
            throw WOPIFormatError(
                .invalidValue, format: format,
                "A parameter has a '%' that is not followed by two "
                    + "hex digits of UTF-8.")
        }
        self.init(
            scheme: scheme, parameters: pairs.map { Parameter(name: $0.name, value: $0.value) },
            expectedUserID: expectedUserID)
        guard let clientID, !clientID.isEmpty else {
            throw WOPIFormatError(
                .missingField, format: format,
                "The 'client_id' parameter is missing; this is not "
                    + "an OAuth authorize request from Office.")
        }
    }

    /// The iOS "To" URL for these parameters (for tests and for a client playing Office's part).
    public func iOSURL(scheme: String) -> String {
        scheme + ":" + PercentEncoding.encodePairs(parameters.map { ($0.name, $0.value) })
    }
}
