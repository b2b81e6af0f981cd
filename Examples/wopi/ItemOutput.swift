import Foundation
import WOPIClient

/// One file or folder as `wopi ls --json` and `wopi stat --json` print it.
struct ItemOutput: Encodable {
    var name: String
    var kind: String
    var id: String?
    var size: Int64?
    var version: String?
    var lastModified: Date?
    var sha256: String?
    var lock: String?
    var wopiSrc: String?

    init(container: WOPIContainerPointer) {
        name = container.name
        kind = "folder"
        id = container.resource.id
    }

    init(file: WOPIFilePointer) {
        name = file.name
        kind = "file"
        id = file.resource.id
        size = file.size
        version = file.version
        lastModified = file.lastModified
        wopiSrc = file.resource.wopiSrc.absoluteString
    }
}
