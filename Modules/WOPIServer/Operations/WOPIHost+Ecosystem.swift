import Foundation
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// Resolves GetFileWopiSrc's `X-WOPI-HostNativeFileName`: a WOPISrc or host URL ending in `/files/{id}`, a
    /// bare file ID, a path below the user's root such as `/Documents/Report.docx`, or one below "Shared with me".
    func fileForNativeName(_ name: String?, user: WOPIUser) async throws -> FileMetadata {
        guard let name, !name.isEmpty else {
            throw WOPIHTTPError.notFound("Send X-WOPI-HostNativeFileName with a file path, ID or WOPISrc.")
        }
        let withoutQuery = String(name.split(separator: "?", maxSplits: 1).first ?? "")
        var candidate: FileMetadata?
        if let range = withoutQuery.range(of: "/files/"),
            let id = ItemID(rawValue: String(withoutQuery[range.upperBound...]).trimmingSuffix("/"))
        {
            candidate = try? await storage.file(id)
        } else if let id = ItemID(rawValue: name) {
            candidate = try? await storage.file(id)
        }
        if candidate == nil {
            let root = try await storage.rootContainer(forUser: user.id)
            let shared = try await SharedWithMe.item(atPath: name, for: user, policy: policy, storage: storage)
            let found: StorageItem? =
                if let shared { shared } else { try? await storage.item(atPath: name, under: root.id) }
            if case .file(let file)? = found { candidate = file }
        }
        guard let file = candidate, try await access(of: user, to: .file(file)).allows(.see) else {
            throw WOPIHTTPError.notFound("No file this user may see matches X-WOPI-HostNativeFileName.")
        }
        return file
    }
}
