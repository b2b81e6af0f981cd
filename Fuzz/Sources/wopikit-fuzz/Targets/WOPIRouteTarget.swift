import WOPIModels

@testable import WOPIServer

extension FuzzTarget {
    /// WOPI routing and headers: the request path (`…/wopi/files/{id}/contents`), `X-WOPI-Lock`, and the name
    /// headers (`X-WOPI-SuggestedTarget`, `X-WOPI-RelativeTarget`, `X-WOPI-RequestedName`: UTF-7, then the file
    /// name rules a host applies).
    ///
    /// Input: `path\nheader value`.
    static let wopiRoute = FuzzTarget(name: "wopi-route") { input in
        let fields = input.fields(2)
        _ = WOPIRoute(path: fields[0])
        _ = LockID(rawValue: fields[1])
        let name = UTF7.decodeLeniently(fields[1])
        for rules in [FileNameRules.default, .officeMobile] {
            let sanitized = rules.sanitized(name)
            fuzzCheck(rules.problem(with: sanitized) == nil, "sanitized name \(sanitized.debugDescription) is refused")
            _ = rules.suggestedName(from: name, sourceName: "Report.docx")
            var taken = 0
            _ = rules.uniqueName(for: sanitized) { _ in
                taken += 1
                return taken < 3
            }
        }
    }
}
