import HTTPTypes
import WOPIHTTPEdge
import WOPIModels

/// The name of a new item in CreateChildFile, CreateChildContainer and PutRelativeFile (Docs/wopi-protocol.md §4.9,
/// §7.4).
public enum WOPINameTarget: Sendable, Hashable {
    /// `X-WOPI-SuggestedTarget`: the host may adjust the name (make it legal and unique); never `400`/`409`.
    /// A value starting with `.` is an extension only.
    case suggested(String)
    /// `X-WOPI-RelativeTarget`: exactly this name; `400` when illegal, `409` when taken unless `overwrite`.
    case exact(String, overwrite: Bool = false)

    /// Writes the target headers (names UTF-7 encoded, as the protocol says).
    func apply(to headers: inout HTTPFields) {
        switch self {
        case .suggested(let name):
            headers[.wopiSuggestedTarget] = UTF7.encode(name)
        case .exact(let name, let overwrite):
            headers[.wopiRelativeTarget] = UTF7.encode(name)
            headers[.wopiOverwriteRelativeTarget] = overwrite ? "true" : "false"
        }
    }
}
