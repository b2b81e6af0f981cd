import WOPIModels
public import WOPIStorage

/// The URLs of the host pages below a base URL: the one place they are built.
public struct HostPageURLs: Sendable {
    /// The base URL the pages live below.
    public let base: String

    /// The pages below `base`.
    public init(base: String) { self.base = base }

    /// The page that opens a file in the WOPI client (`view`, `edit` or `editnew`).
    public func open(_ id: ItemID, action: String) -> String { "\(base)/open/\(id)?action=\(action)" }
    /// The page that opens one version of a file (a ``FileVersion/id``) in the WOPI client, read-only.
    public func open(_ id: ItemID, version: String) -> String {
        open(id, action: "view") + "&version=\(PercentEncoding.encode(version))"
    }
    /// The file list of a container (the user's root when `nil`).
    public func files(in container: ItemID?) -> String {
        "\(base)/files" + (container.map { "?container=\($0)" } ?? "")
    }
    /// The end of an editing session the host page opened (`session` is the page's own value), then the file's
    /// folder.
    public func close(_ id: ItemID, session: String) -> String { "\(base)/close/\(id)?session=\(session)" }
    /// The download of a file's current content.
    public func download(_ id: ItemID) -> String { "\(base)/download/\(id)" }
    /// The download of one version of a file (a ``FileVersion/id``).
    public func download(_ id: ItemID, version: String) -> String {
        "\(base)/download/\(id)?version=\(PercentEncoding.encode(version))"
    }
    /// The versions view of a file: its versions, each with its download, restore and keep.
    public func versions(_ id: ItemID) -> String { "\(base)/versions/\(id)" }
}
