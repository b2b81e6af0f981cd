import Foundation
import WOPIHTTPEdge
import WOPIModels
public import WOPIStorage

/// One version of a file as a WOPI file of its own, which a WOPI client opens read-only: its ID (``id``) is the
/// WOPISrc's, so the client never mistakes it for the current file (Office and Collabora key their sessions by it).
///
/// Its CheckFileInfo describes the version (size, version, digest, time) as read-only, and its GetFile answers the
/// version's bytes, by range too; every other operation is refused with 401, whatever the token allows, so no write
/// reaches it. A token for it names ``id`` as its file, and the user needs to see the file itself now: the host asks
/// its policy about the file, as for any request.
///
/// The IDs start with `vv_`, which the host reserves when its storage keeps versions (``VersionedStorage``); a
/// backend's own IDs never look like one where its IDs are random (as the bundled backends' are).
public struct VersionView: Sendable, Hashable {
    /// The file.
    public let file: ItemID
    /// Its version (a ``FileVersion/id``).
    public let version: String

    private static let prefix = "vv_"

    /// The view of `version` of `file`.
    public init(file: ItemID, version: String) {
        self.file = file
        self.version = version
    }

    /// The view an ID names, `nil` for the ID of anything else.
    public init?(id: ItemID) {
        guard id.rawValue.hasPrefix(Self.prefix),
            let bytes = Base64URL.decode(id.rawValue.dropFirst(Self.prefix.count)),
            let separator = bytes.firstIndex(of: 0x0A),
            let file = ItemID(rawValue: String(decoding: bytes[..<separator], as: UTF8.self))
        else { return nil }
        let version = String(decoding: bytes[(separator + 1)...], as: UTF8.self)
        guard !version.isEmpty else { return nil }
        self.init(file: file, version: version)
    }

    /// The WOPI file ID: `vv_` and the base64url of the file's ID, a line feed and the version; `nil` when that passes
    /// ``ItemID/maximumLength`` (a file ID and version of more than about 90 bytes together).
    public var id: ItemID? {
        ItemID(rawValue: Self.prefix + Base64URL.encode(Array((file.rawValue + "\n" + version).utf8)))
    }
}

extension WOPIHost {
    /// The version view a request's file names, when the storage keeps versions. On every request: the ID's prefix
    /// is checked before the storage is cast.
    func versionView(of operation: WOPIOperation) -> VersionView? {
        guard case .file(let id)? = operation.resource, let view = VersionView(id: id), storage is any VersionedStorage
        else { return nil }
        return view
    }

    /// Answers a request to a ``VersionView``: CheckFileInfo and GetFile of the version, read-only; 401 for the rest.
    func perform(_ operation: WOPIOperation, on view: VersionView, request: WOPIRequest) async throws -> WOPIResponse {
        guard let resource = operation.resource else { throw WOPIHTTPError.notFound("No item has this ID.") }
        var context = try await authorize(request, for: .file(view.file), tokenFor: resource, signed: checksProofs)
        context.access = context.access.limited(to: .view)
        let versioned = try versionedStorage
        let version = try await versioned.version(view.version, of: view.file)
        switch operation {
        case .checkFileInfo:
            var info = try await checkFileInfo(view.file, context: context)
            Self.describe(&info, as: version)
            return try .json(info)
        case .getFile:
            try Self.require(.read, on: view.file, of: context.access)  // a secure viewer: only in the editor
            var old = try await context.file(view.file, in: storage)
            (old.size, old.version, old.sha256) = (version.size, version.id, version.sha256)
            return try await content(of: old, request: request) { range in
                try await versioned.readVersion(view.version, of: view.file, range: range)
            }
        default:
            throw WOPIHTTPError.unauthorized(
                "This is an earlier version of the file, open read-only: it cannot be changed. Restore it to change it."
            )
        }
    }

    /// CheckFileInfo of the current file made that of `version`: its content, and nothing that changes or shares it.
    private static func describe(_ info: inout CheckFileInfo, as version: FileVersion) {
        info.size = version.size
        info.version = version.id
        info.sha256 = version.sha256?.base64EncodedString()
        info.lastModifiedTime = WOPIJSON.timestamp(version.savedAt)
        (info.readOnly, info.userCanWrite, info.userCanRename, info.userCanNotWriteRelative) = (
            true, false, false, true
        )
        (info.supportsLocks, info.supportsGetLock, info.supportsUpdate) = (false, false, false)
        (info.supportsRename, info.supportsDeleteFile, info.supportsExtendedLockLength) = (false, false, false)
        (info.supportsCoauth, info.supportsChunkedFileTransfer, info.supportsResumableFileTransfer) = (nil, nil, nil)
        info.realTimeChannelEndpointURL = nil
        info.officeCollaborationServiceEndpointURL = nil
        info.sequenceNumber = nil
        info.supportedShareURLTypes = nil
        info.fileURL = nil
        info.templateSource = nil
        info.hostEditURL = nil
    }
}
