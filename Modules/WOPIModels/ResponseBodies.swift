// The small JSON bodies of WOPI responses other than CheckFileInfo and CheckContainerInfo.

/// A name and a URL with an access token: how WOPI points at a container (`ContainerPointer`) or an ancestor.
public struct NamedURL: Codable, Sendable, Hashable {
    /// The item's name.
    public var name: String
    /// The item's WOPI URL with `access_token` (and `access_token_ttl`) appended.
    public var url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case name = "Name"
        case url = "Url"
    }
}

/// The body of EnumerateAncestors (files and containers).
public struct AncestorsResponse: Codable, Sendable, Hashable {
    /// Root first, direct parent last; empty for a root container.
    public var ancestorsWithRootFirst: [NamedURL]

    public init(ancestorsWithRootFirst: [NamedURL]) { self.ancestorsWithRootFirst = ancestorsWithRootFirst }

    enum CodingKeys: String, CodingKey { case ancestorsWithRootFirst = "AncestorsWithRootFirst" }
}

/// The body of PutRelativeFile and CreateChildFile.
public struct NewFileResponse: Codable, Sendable, Hashable {
    /// The new file's name, with extension.
    public var name: String
    /// The new file's WOPI URL with an access token; a GET on it runs CheckFileInfo.
    public var url: String
    /// The new file's view page.
    public var hostViewURL: String?
    /// The new file's edit page.
    public var hostEditURL: String?
    /// The host page for the `editnew` action (CreateChildFile).
    public var hostEditNewURL: String?

    public init(
        name: String, url: String, hostViewURL: String? = nil, hostEditURL: String? = nil, hostEditNewURL: String? = nil
    ) {
        self.name = name
        self.url = url
        self.hostViewURL = hostViewURL
        self.hostEditURL = hostEditURL
        self.hostEditNewURL = hostEditNewURL
    }

    enum CodingKeys: String, CodingKey {
        case name = "Name"
        case url = "Url"
        case hostViewURL = "HostViewUrl"
        case hostEditURL = "HostEditUrl"
        case hostEditNewURL = "HostEditNewUrl"
    }
}

/// The body of RenameFile (the name **without** extension) and RenameContainer.
public struct RenameResponse: Codable, Sendable, Hashable {
    public var name: String
    public init(name: String) { self.name = name }
    enum CodingKeys: String, CodingKey { case name = "Name" }
}

/// The body of GetEcosystem and GetFileWopiSrc: one URL.
public struct URLResponse: Codable, Sendable, Hashable {
    public var url: String
    public init(url: String) { self.url = url }
    enum CodingKeys: String, CodingKey { case url = "Url" }
}

/// The body of GetShareUrl.
public struct ShareURLResponse: Codable, Sendable, Hashable {
    public var shareURL: String
    public init(shareURL: String) { self.shareURL = shareURL }
    enum CodingKeys: String, CodingKey { case shareURL = "ShareUrl" }
}
