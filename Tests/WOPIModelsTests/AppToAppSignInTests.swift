import Testing
import WOPIModels

@Suite struct AppToAppSignInTests {
    static let iOSTo =
        "contoso:client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word"
        + "&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624"

    @Test func parsesTheDocsIOSRequest() throws {
        let request = try AppToAppSignInRequest(iOSURL: Self.iOSTo)
        #expect(request.scheme == "contoso")
        #expect(request.clientID == "abcdefg")
        #expect(request.responseType == "code")
        #expect(request.scope == "wopi")
        #expect(request.culture == "enUS")
        #expect(request.build == "16.1.1234")
        #expect(request.platform == "iOS")
        #expect(request.app == "word")
        #expect(request.action == "76d173ad-a43f-4e3c-a5e7-0e7276b4c624")
        #expect(request.returnScheme == "ms-word-tp")
        #expect(request.state == nil && request.redirectURI == nil)
        #expect(!request.authorizeQuery.contains("action"))
        #expect(request.iOSURL(scheme: "contoso") == Self.iOSTo)
    }

    @Test func readsNamesCaseInsensitivelyAndDecodesValues() throws {
        let request = try AppToAppSignInRequest(
            iOSURL:
                "contoso://auth?Client_ID=c%201&Build=1.2&Platform=iOS&APP=Excel&redirect_uri=https%3A%2F%2Flocalhost"
                + "&scope=a+b&state=s%26t&action=x")
        #expect(request.clientID == "c 1")
        #expect(request.build == "1.2" && request.platform == "iOS")
        #expect(request.returnScheme == "ms-excel-tp")
        #expect(request.redirectURI == "https://localhost")
        #expect(request.scope == "a b")
        #expect(request.state == "s&t")
        let unknownApp = try AppToAppSignInRequest(iOSURL: "contoso:client_id=c&app=office&action=a")
        #expect(unknownApp.returnScheme == "ms-officemobile-tp")
    }

    @Test func buildsTheDocsIOSBackURL() throws {
        let request = try AppToAppSignInRequest(iOSURL: Self.iOSTo)
        let response = AppToAppSignInResponse(
            answering: request,
            outcome: .authorized(
                code: "abcdefg", tokenIssuanceURI: "https://contoso.com/api/token/?extra=stuff", sessionContext: "xyz"))
        #expect(
            response.iOSURL(scheme: request.returnScheme)
                == "ms-word-tp:code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff&sc=xyz"
                + "&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624")
        #expect(try AppToAppSignInResponse(parsing: response.iOSURL(scheme: "ms-word-tp")) == response)
    }

    @Test func buildsFailures() throws {
        let response = AppToAppSignInResponse(
            outcome: .failed(error: "access_denied", description: "User cancelled & left"), state: "st",
            action: "a1")
        #expect(
            response.iOSURL(scheme: "ms-excel-tp")
                == "ms-excel-tp:error=access_denied&error_description=User%20cancelled%20%26%20left&state=st&action=a1")
        #expect(try AppToAppSignInResponse(parsing: response.queryString) == response)
    }

    @Test func androidRequestAndResponse() throws {
        let query = "client_id=abcdefg&response_type=code&scope=wopi&rs=en-US&build=16.0.1&platform=android&app=word"
        let request = try AppToAppSignInRequest(androidQuery: query, userID: "u1")
        #expect(request.scheme == nil && request.action == nil)
        #expect(request.platform == "android" && request.expectedUserID == "u1")
        let response = AppToAppSignInResponse(
            answering: request, outcome: .authorized(code: "abcdefg", tokenIssuanceURI: nil, sessionContext: "xyz"))
        #expect(response.queryString == "code=abcdefg&sc=xyz")
        #expect(AndroidAppToAppExtras.authorizeURLQueryParams == "AuthorizeUrlQueryParams")
        #expect(AndroidAppToAppExtras.userID == "UserId")
        #expect(
            AndroidAppToAppExtras.responseURLQueryParamsNames == ["ResponseUrlQueryParams", "ResonponseUrlQueryParams"])
    }

    @Test(arguments: [
        "",
        "no-colon-here",
        "contoso:response_type=code&action=a",
        "contoso:client_id=abc",
        "contoso:client_id=a%zz&action=b",
    ])
    func rejectsMalformedIOSRequests(text: String) {
        #expect(throws: WOPIFormatError.self) { try AppToAppSignInRequest(iOSURL: text) }
    }

    @Test func rejectsMalformedResponsesAndAndroidQueries() {
        #expect(throws: WOPIFormatError.self) { try AppToAppSignInRequest(androidQuery: "scope=x") }
        #expect(throws: WOPIFormatError.self) { try AppToAppSignInResponse(parsing: "ms-word-tp:sc=x") }
        #expect(throws: WOPIFormatError.self) { try AppToAppSignInResponse(parsing: "code=%E9") }
    }

    @Test func randomValuesRoundTrip() throws {
        let pool = Array("aZ0 &=+%?#/:é日😀")
        func random() -> String { String((0..<Int.random(in: 1...10)).map { _ in pool.randomElement()! }) }
        for _ in 0..<500 {
            let response = AppToAppSignInResponse(
                outcome: .authorized(code: random(), tokenIssuanceURI: random(), sessionContext: random()),
                state: random(), action: random())
            #expect(try AppToAppSignInResponse(parsing: response.iOSURL(scheme: "ms-word-tp")) == response)
            let request = AppToAppSignInRequest(
                parameters: [.init(name: "client_id", value: random()), .init(name: "action", value: random())])
            #expect(
                try AppToAppSignInRequest(iOSURL: request.iOSURL(scheme: "contoso")).parameters == request.parameters)
        }
    }
}
