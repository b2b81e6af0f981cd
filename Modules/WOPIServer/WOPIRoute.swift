import HTTPTypes
import WOPIModels
import WOPIStorage

/// Where a request goes, parsed from its path (Docs/wopi-protocol.md §2.1):
/// `…/wopi*/files/{id}[/contents|/ancestry|…]`,
/// `…/wopi*/containers/{id}[/children|…]`, `…/wopi*/ecosystem[/root_container_pointer]`, `…/wopibootstrapper`.
enum WOPIRoute: Equatable {
    enum FileEndpoint: String {
        case info = "", contents, ancestry, ecosystemPointer = "ecosystem_pointer"
        /// The `FileUrl` of ``FileURLs``: the content, with a ticket instead of an access token.
        case fileURL = "fileurl"
        /// The template an empty file was made from (CheckFileInfo's `TemplateSource`).
        case template
    }
    enum ContainerEndpoint: String {
        case info = "", children, ancestry, ecosystemPointer = "ecosystem_pointer"
    }
    enum EcosystemEndpoint: String { case info = "", rootContainerPointer = "root_container_pointer" }

    case file(ItemID, FileEndpoint)
    case container(ItemID, ContainerEndpoint)
    case ecosystem(EcosystemEndpoint)
    case bootstrapper
    /// A WOPI-shaped path whose item ID is not a valid ID: it names nothing.
    case unknownItem

    init?(path: String) {
        // Slices of the path; only the item ID becomes a string of its own.
        let segments = path.fields(separatedBy: UInt8(ascii: "/"), omittingEmpty: true)
        if segments.last?.hasSuffix("wopibootstrapper") == true {
            self = .bootstrapper
            return
        }
        guard let index = segments.firstIndex(where: Self.startsWithWOPI), index + 1 < segments.count else {
            return nil
        }
        let rest = segments[(index + 1)...]
        let kind = rest[rest.startIndex]
        switch kind {
        case "files", "containers":
            guard rest.count == 2 || rest.count == 3 else { return nil }
            guard let id = ItemID(rawValue: String(rest[rest.startIndex + 1])) else {
                self = .unknownItem
                return
            }
            let sub = rest.count == 3 ? String(rest[rest.startIndex + 2]) : ""
            if kind == "files" {
                guard let endpoint = FileEndpoint(rawValue: sub) else { return nil }
                self = .file(id, endpoint)
            } else {
                guard let endpoint = ContainerEndpoint(rawValue: sub) else { return nil }
                self = .container(id, endpoint)
            }
        case "ecosystem":
            let sub = rest.count == 2 ? String(rest[rest.startIndex + 1]) : ""
            guard rest.count <= 2, let endpoint = EcosystemEndpoint(rawValue: sub) else {
                return nil
            }
            self = .ecosystem(endpoint)
        default:
            return nil
        }
    }

    /// Whether `segment` starts with `wopi` in any case (`wopi`, `WOPI`, `wopibootstrapper`…), compared byte by byte.
    private static func startsWithWOPI(_ segment: Substring) -> Bool {
        var bytes = segment.utf8.makeIterator()
        // Setting bit 5 maps each ASCII capital to its small letter; no other byte maps to one of these four.
        return "wopi".utf8.allSatisfy { letter in bytes.next().map { $0 | 0x20 == letter } ?? false }
    }
}
