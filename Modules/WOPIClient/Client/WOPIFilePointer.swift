public import Foundation
public import WOPIModels

/// A file as a host points at it: its name, its endpoint with a token, and what EnumerateChildren tells about it.
public struct WOPIFilePointer: Sendable, Hashable {
    /// The file name with extension.
    public var name: String
    /// The file's endpoint (WOPISrc) and token.
    public var resource: WOPIResource
    /// The size in bytes, when listed.
    public var size: Int64?
    /// The version, when listed.
    public var version: String?
    /// When the content last changed, when listed.
    public var lastModified: Date?

    /// Creates a pointer.
    public init(
        name: String, resource: WOPIResource, size: Int64? = nil, version: String? = nil, lastModified: Date? = nil
    ) {
        self.name = name
        self.resource = resource
        self.size = size
        self.version = version
        self.lastModified = lastModified
    }

    /// Reads an EnumerateChildren `ChildFiles` entry.
    public init(_ child: ChildFile) throws {
        try self.init(name: child.name, url: child.url)
        size = child.size
        version = child.version
        lastModified = child.lastModifiedTime.flatMap(WOPIJSON.date(from:))
    }

    /// Reads a `{Name, Url}` pair of a file (CreateChildFile, PutRelativeFile).
    ///
    /// - Throws: ``WOPIClientError/Code/protocolViolation`` when the URL is not a file endpoint.
    public init(name: String, url: String) throws {
        let resource = try WOPIResource(string: url)
        guard resource.kind == .file else {
            throw WOPIClientError(.protocolViolation, "The host pointed at \(resource) where a file was expected.")
        }
        self.init(name: name, resource: resource)
    }
}
