import WOPIModels

extension FuzzTarget {
    /// Office URL schemes (`ms-word:ofe|u|…`) and the passback URL Office calls back with. What parses must read
    /// back from its own `string`.
    static let officeURL = FuzzTarget(name: "office-url") { input in
        let text = input.text
        if let url = try? OfficeOpenURL(string: text) {
            _ = url.url
            fuzzCheck(
                (try? OfficeOpenURL(string: url.string)) == url, "OfficeOpenURL round trip of \(text.debugDescription)")
        }
        if let passback = try? OfficePassbackURL(string: text) {
            _ = passback.url
            fuzzCheck(
                (try? OfficePassbackURL(string: passback.string)) == passback,
                "OfficePassbackURL round trip of \(text.debugDescription)")
        }
    }
}
