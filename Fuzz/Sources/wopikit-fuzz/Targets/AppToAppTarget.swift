import WOPIModels

extension FuzzTarget {
    /// App-to-app sign-in: the iOS URL and Android query Office opens the provider's app with, and the response
    /// URL the app answers with.
    static let appToApp = FuzzTarget(name: "app-to-app") { input in
        let (choice, rest) = input.selector
        let text = rest.text
        switch choice % 3 {
        case 0:
            if let request = try? AppToAppSignInRequest(iOSURL: text) {
                _ = request.authorizeQuery
                _ = request.returnScheme
                _ = AppToAppSignInResponse(answering: request, outcome: .failed(error: "access_denied")).iOSURL(
                    scheme: request.returnScheme)
            }
        case 1:
            let fields = rest.fields(2)
            _ = try? AppToAppSignInRequest(androidQuery: fields[0], userID: fields[1].isEmpty ? nil : fields[1])
        default:
            _ = try? AppToAppSignInResponse(parsing: text)
        }
    }
}
