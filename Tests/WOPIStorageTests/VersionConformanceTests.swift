import Foundation
import NIOCore
import Testing
import WOPIStorage
import WOPIStorageConformance

@Suite("Version conformance: the in-memory reference, and broken stores it must catch")
struct VersionConformanceTests {
    @Test(arguments: VersionConformance.cases)
    func inMemory(_ conformance: VersionConformanceCase) async throws {
        try await conformance.run { retention, now in InMemoryStorage(retention: retention, now: now) }
    }

    /// Each case fails against a store broken in the way it checks.
    @Test(arguments: zip(VersionConformance.cases, BrokenVersions.Defect.caught))
    func catches(_ conformance: VersionConformanceCase, _ defect: BrokenVersions.Defect) async throws {
        await #expect(throws: ConformanceFailure.self, "\(defect) must fail \"\(conformance.name)\"") {
            try await conformance.run { retention, now in BrokenVersions(defect, retention: retention, now: now) }
        }
    }
}

/// The in-memory store with one defect of version history.
struct BrokenVersions: VersionedStorage, GarbageCollectingStorage, StorageUsage {
    enum Defect: Sendable {
        /// Saves are recorded as unknown, by nobody.
        case forgetsSaveContext
        /// Every version reads as the current content.
        case readsCurrentContent
        /// A restore also deletes the version it replaced.
        case restoreDropsHistory
        /// Deleting a version does nothing.
        case ignoresDeletes
        /// Keeping a version is reported but not stored.
        case forgetsKeeps
        /// No retention rule applies.
        case keepsEverything
        /// A moved file lists only its current version.
        case losesHistoryOnMove
        /// An earlier version is read a piece at a time from the store, with nothing holding it.
        case readsWithoutLease
        /// The stored bytes count the current version alone.
        case countsCurrentOnly

        /// The defect each of ``VersionConformance/cases`` catches, in their order.
        static let caught: [Defect] = [
            .forgetsSaveContext, .readsCurrentContent, .restoreDropsHistory, .ignoresDeletes, .forgetsKeeps,
            .keepsEverything, .keepsEverything, .losesHistoryOnMove, .readsWithoutLease, .countsCurrentOnly,
        ]
    }

    let defect: Defect
    let base: InMemoryStorage
    let moved = MovedFiles()

    init(_ defect: Defect, retention: VersionRetention, now: @escaping @Sendable () -> Date) {
        self.defect = defect
        base = InMemoryStorage(retention: defect == .keepsEverything ? VersionRetention() : retention, now: now)
    }

    actor MovedFiles {
        var ids: Set<ItemID> = []
        func insert(_ id: ItemID) { ids.insert(id) }
        func contains(_ id: ItemID) -> Bool { ids.contains(id) }
    }

    func rootContainer(forUser user: String) async throws -> ContainerMetadata {
        await base.rootContainer(forUser: user)
    }
    func item(_ id: ItemID) async throws -> StorageItem { try await base.item(id) }
    func children(of container: ItemID) async throws -> [StorageItem] { try await base.children(of: container) }
    func createContainer(named name: String, in parent: ItemID) async throws -> ContainerMetadata {
        try await base.createContainer(named: name, in: parent)
    }
    func createFile(named name: String, in parent: ItemID, content: ByteStream, overwrite: Bool) async throws
        -> FileMetadata
    {
        try await saving { try await base.createFile(named: name, in: parent, content: content, overwrite: overwrite) }
    }
    func readFile(_ id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        try await base.readFile(id, range: range)
    }
    func writeFile(_ id: ItemID, content: ByteStream, expectedVersion: String?) async throws -> FileMetadata {
        try await saving { try await base.writeFile(id, content: content, expectedVersion: expectedVersion) }
    }
    func rename(_ id: ItemID, to newName: String) async throws -> StorageItem { try await base.rename(id, to: newName) }
    func move(_ id: ItemID, to newParent: ItemID, newName: String?, replacing: Bool) async throws -> StorageItem {
        await moved.insert(id)
        return try await base.move(id, to: newParent, newName: newName, replacing: replacing)
    }
    func delete(_ id: ItemID) async throws { try await base.delete(id) }

    func versions(of id: ItemID) async throws -> [FileVersion] {
        let versions = try await base.versions(of: id)
        let wasMoved = await moved.contains(id)
        return defect == .losesHistoryOnMove && wasMoved ? Array(versions.prefix(1)) : versions
    }

    func readVersion(_ version: String, of id: ItemID, range: Range<Int64>?) async throws -> FileContent {
        switch defect {
        case .readsCurrentContent:
            return try await base.readFile(id, range: range)
        case .readsWithoutLease:
            let whole = try await base.readVersion(version, of: id, range: range)
            let size = whole.metadata.size
            let offset = OffsetBox()
            let body = ByteStream(knownLength: size) {
                {
                    let start = await offset.take(64 * 1024, limit: size)
                    guard start < size else { return nil }
                    let piece = try await base.readVersion(version, of: id, range: start..<min(start + 64 * 1024, size))
                    return try await piece.body.collect(upTo: 1 << 20)
                }
            }
            return FileContent(metadata: whole.metadata, body: body)
        default:
            return try await base.readVersion(version, of: id, range: range)
        }
    }

    actor OffsetBox {
        var offset: Int64 = 0
        func take(_ count: Int64, limit: Int64) -> Int64 {
            defer { offset = min(offset + count, limit) }
            return offset
        }
    }

    func deleteVersion(_ version: String, of id: ItemID) async throws {
        if defect != .ignoresDeletes { try await base.deleteVersion(version, of: id) }
    }

    func keepVersion(_ version: String, of id: ItemID, _ kept: Bool) async throws -> FileVersion {
        guard defect == .forgetsKeeps else { return try await base.keepVersion(version, of: id, kept) }
        var found = try await base.version(version, of: id)
        found.isKept = kept
        return found
    }

    func restoreVersion(_ version: String, of id: ItemID, expectedVersion: String?) async throws -> FileMetadata {
        let replaced = try await base.file(id).version
        let restored = try await base.restoreVersion(version, of: id, expectedVersion: expectedVersion)
        if defect == .restoreDropsHistory { try await base.deleteVersion(replaced, of: id) }
        return restored
    }

    func collectGarbage() async throws -> GarbageReport { await base.collectGarbage() }

    func storedBytes(ownedBy user: String) async throws -> Int64 {
        guard defect == .countsCurrentOnly else { return await base.storedBytes(ownedBy: user) }
        var total: Int64 = 0
        let root = await base.rootContainer(forUser: user)
        for case .file(let file) in try await base.children(of: root.id) { total += file.size }
        return total
    }

    private func saving(_ body: () async throws -> FileMetadata) async throws -> FileMetadata {
        guard defect == .forgetsSaveContext else { return try await body() }
        return try await SaveContext.$current.withValue(nil, operation: body)
    }
}
