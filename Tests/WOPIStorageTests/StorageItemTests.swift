import Foundation
import Testing
import WOPIStorage

@Suite("StorageItem: a listing's order")
struct StorageItemTests {
    private static func file(_ name: String, _ id: String) -> StorageItem {
        .file(
            FileMetadata(
                id: ItemID(rawValue: id)!, name: name, parentID: ItemID(rawValue: "parent")!, ownerID: "ana", size: 0,
                version: "v1", lastModified: Date(timeIntervalSince1970: 0), sha256: nil))
    }

    private static func folder(_ name: String, _ id: String) -> StorageItem {
        .container(
            ContainerMetadata(
                id: ItemID(rawValue: id)!, name: name, parentID: ItemID(rawValue: "parent")!, ownerID: "ana",
                lastModified: Date(timeIntervalSince1970: 0)))
    }

    @Test func sortedByNameOrdersAsStringsDoAndKeepsEqualNamesInTheirOrder() {
        let items = [
            Self.file("b.docx", "f1"), Self.folder("Zeta", "c1"), Self.file("a.docx", "f2"),
            Self.folder("b.docx", "c2"),
            Self.file("Über.xlsx", "f3"), Self.file("a.docx", "f4"),
        ]
        let sorted = items.sortedByName()
        #expect(sorted.map(\.id.rawValue) == ["c1", "f2", "f4", "f1", "c2", "f3"])
        #expect(sorted.map(\.name) == items.map(\.name).sorted())
        #expect([StorageItem]().sortedByName().isEmpty)
    }
}
