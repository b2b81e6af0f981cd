import Foundation
import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

/// What a WOPI client's PutFile headers say, read in this one place: `X-WOPI-Editors` (Office for the web,
/// ONLYOFFICE) and Collabora Online's save headers, each under its `X-COOL-WOPI-` name and the `X-LOOL-WOPI-` one
/// that ONLYOFFICE and Collabora in legacy mode send (``CollaboraHeader``). Both prefixes mean exactly the same; when
/// a request carries both, the `X-COOL-WOPI-` value wins.
struct ClientSaveHeaders {
    /// What the policy sees (``PutFileDetails``).
    var details: PutFileDetails
    /// `X-COOL-WOPI-Timestamp`: the `LastModifiedTime` the client last read; a PutFile with it writes only over that
    /// version.
    var timestamp: String?
    /// Whether the request speaks Collabora's dialect (any `X-COOL-WOPI-` or `X-LOOL-WOPI-` header): such a client
    /// expects `{"LastModifiedTime": …}` back from PutFile.
    var speaksCollabora: Bool

    /// Reads `request`'s headers.
    init(_ request: WOPIRequest) {
        func value(_ names: [String]) -> String? { names.lazy.compactMap { request.header($0) }.first }
        func flag(_ names: [String]) -> Bool? { value(names).map { $0.lowercased() == "true" } }
        let editors = (request.header(WOPIHeader.editors) ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        details = PutFileDetails(
            editors: editors, isAutosave: flag(CollaboraHeader.isAutosave),
            isExitSave: flag(CollaboraHeader.isExitSave), isModifiedByUser: flag(CollaboraHeader.isModifiedByUser),
            size: request.body.knownLength ?? request.header("Content-Length").flatMap { Int64($0) })
        timestamp = value(CollaboraHeader.timestamp)
        speaksCollabora = request.headers.contains { field in
            let name = field.name.canonicalName
            return CollaboraHeader.prefixes.contains { name.hasPrefix($0.lowercased()) }
        }
    }
}
