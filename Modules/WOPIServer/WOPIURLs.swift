import WOPIHTTPEdge
public import WOPIStorage

/// The WOPI URLs of a host, without tokens: the one place WOPISrc values are built.
///
/// ```swift
/// let urls = WOPIURLs(publicURL: "https://wopi.example.com", configuration: host.configuration)
/// urls.file(id)        // https://wopi.example.com/wopi/files/<id>: a WOPISrc
/// ```
public struct WOPIURLs: Sendable, Hashable {
    /// The WOPI root, for example `https://wopi.example.com/wopi`.
    public let root: String

    /// The URLs below a WOPI root.
    public init(root: String) {
        self.root = root
    }

    /// The URLs of a host reached at `publicURL` (scheme and authority, any trailing `/` ignored).
    public init(publicURL: String, configuration: WOPIHostConfiguration) {
        self.init(root: publicURL.trimmingSuffix("/") + configuration.wopiPath)
    }

    /// The WOPISrc of a file.
    public func file(_ id: ItemID) -> String { url(of: .file(id)) }
    /// The WOPI URL of a container.
    public func container(_ id: ItemID) -> String { url(of: .container(id)) }
    /// The ecosystem URL.
    public var ecosystem: String { url(of: .ecosystem) }

    /// The URL of the resource a token names.
    func url(of resource: AccessToken.Resource) -> String {
        var bytes: [UInt8] = []
        append(resource, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the URL of the resource a token names to `bytes` (a listing builds its children's URLs in one
    /// buffer).
    func append(_ resource: AccessToken.Resource, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: root.utf8)
        resource.append(to: &bytes, file: "/files/", container: "/containers/", ecosystem: "/ecosystem")
    }
}
