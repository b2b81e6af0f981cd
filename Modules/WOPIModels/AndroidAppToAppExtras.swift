/// The Intent extra names of Android app-to-app sign-in (Docs/wopi-protocol.md §10.5).
public enum AndroidAppToAppExtras {
    /// Extra Office sends: the authorize request's query string (no `action`, `platform=android`).
    public static let authorizeURLQueryParams = "AuthorizeUrlQueryParams"
    /// Extra in both directions: the user ID Office asks for, and the user who signed in.
    public static let userID = "UserId"
    /// Result extra holding ``AppToAppSignInResponse/queryString``, as the docs' text spells it.
    public static let responseURLQueryParams = "ResponseUrlQueryParams"
    /// The same result extra as spelled by Microsoft's sample code (`ResonponseUrlQueryParams`). Which spelling
    /// Office reads is unconfirmed (§18.5), so set both.
    public static let responseURLQueryParamsSampleSpelling = "ResonponseUrlQueryParams"
    /// Both spellings of the result extra; put the response under each.
    public static let responseURLQueryParamsNames = [responseURLQueryParams, responseURLQueryParamsSampleSpelling]
}
