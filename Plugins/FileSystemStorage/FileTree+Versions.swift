import Foundation
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Version history: a file's earlier versions are its replaced inodes, hard-linked into
/// `ROOT/.wopikit/versions/<file ID>/<version>` (``versions``) by the save that replaced them, beside the tree and
/// never inside a user's folder. Each carries its ``ContentStamp`` and ``SaveRecord``, and `user.wopikit.kept` when
/// a user kept it. Nothing is copied: keeping a version costs a directory entry, and the replaced file's blocks stay
/// allocated until retention, a deletion or the file's own deletion unlinks it.
extension FileTree {
    /// A version as the tree stores it: what ``FileVersion`` says of it, its place in the history and the open file.
    struct StoredVersion {
        var version: FileVersion
        var sequence: Int64
        var entry: Descriptor
    }

    /// The folder of file `id`'s earlier versions; `nil` when there is none and `create` is `false`.
    func versionFolder(of id: ItemID, create: Bool) throws -> Descriptor? {
        if create && mkdirat(versions.raw, id.rawValue, 0o700) != 0 && errno != EEXIST {
            throw POSIXFailure(errno: errno, "create the version folder of file \(id)")
        }
        do {
            return try Descriptor.openDirectory(id.rawValue, in: versions)
        } catch let failure as POSIXFailure where failure.errno == ENOENT {
            return nil
        }
    }

    /// Describes the content open as `entry`: the current file (`name` is `nil`) or the earlier version `name`.
    ///
    /// A save record describes the content only while its stamp does: after an edit by another program the version
    /// is dated by its modification time and saved by nobody through an unknown path.
    func describeVersion(_ entry: Descriptor, named name: String?) throws -> StoredVersion {
        let status = try entry.status()
        let stamp = ContentStamp(attribute: try POSIX.attribute(POSIX.stampAttribute, of: entry))
        let (version, sha256) = ContentStamp.describe(status, stamp: stamp)
        let record = SaveRecord(attribute: try POSIX.attribute(POSIX.saveAttribute, of: entry))
        let trusted = sha256 == nil ? nil : record
        let described = FileVersion(
            id: name ?? version, size: status.size,
            savedAt: trusted?.savedAt ?? Date(timeIntervalSince1970: Double(status.modifiedNanoseconds) / 1e9),
            save: trusted?.save ?? SaveContext(userID: nil, path: .unknown),
            isKept: try POSIX.attribute(POSIX.keptAttribute, of: entry) == "1", isCurrent: name == nil,
            sha256: sha256)
        return StoredVersion(version: described, sequence: record?.sequence ?? 0, entry: entry)
    }

    /// Every version of a located file, the current one first, then the earlier ones newest first.
    func storedVersions(of file: Location) throws -> [StoredVersion] {
        let current = try describeVersion(file.entry, named: nil)
        guard let folder = try versionFolder(of: file.id, create: false) else { return [current] }
        var earlier: [StoredVersion] = []
        for name in try folder.entryNames() where name != current.version.id && ItemID(rawValue: name) != nil {
            guard let entry = try? Descriptor.open(name, in: folder, flags: O_RDONLY), try entry.status().kind == .file
            else { continue }
            earlier.append(try describeVersion(entry, named: name))
        }
        earlier.sort { ($0.sequence, $0.version.savedAt) > ($1.sequence, $1.version.savedAt) }
        return [current] + earlier
    }

    /// The version `version` of a located file, open.
    ///
    /// - Throws: ``StorageError/Code/notFound`` when the version is gone, or `version` cannot name one (only the
    ///   characters of an ``ItemID`` do, so no value reaches outside the file's version folder).
    func storedVersion(_ version: String, of file: Location) throws -> StoredVersion {
        let current = try describeVersion(file.entry, named: nil)
        if version == current.version.id { return current }
        let id = file.id
        guard ItemID(rawValue: version) != nil, let folder = try versionFolder(of: id, create: false),
            let entry = try? Descriptor.open(version, in: folder, flags: O_RDONLY), try entry.status().kind == .file
        else { throw StorageError.versionNotFound(version, of: id) }
        return try describeVersion(entry, named: version)
    }

    /// Stamps `temporary` with the record of `save` and, unless `save` coalesces with the current version (an
    /// autosave within the grace period, ``VersionRetention/coalesces(_:previous:previousSavedAt:previousIsKept:now:)``)
    /// or the retention keeps the current version alone, links the current version into its file's version folder.
    /// Called under the tree lock, just before `temporary` replaces `target`.
    func recordSave(_ save: SaveContext, of temporary: TemporaryFile, replacing target: Location?) throws {
        let now = self.now()
        let current = try target.map { try describeVersion($0.entry, named: nil) }
        let record = SaveRecord(sequence: (current?.sequence ?? 0) + 1, savedAt: now, save: save)
        try POSIX.setAttribute(POSIX.saveAttribute, to: record.attributeValue, of: temporary.descriptor)
        guard let target, let current, retention.keepLast != 1,
            !retention.coalesces(
                save, previous: current.version.save, previousSavedAt: current.version.savedAt,
                previousIsKept: current.version.isKept, now: now)
        else { return }
        guard let folder = try versionFolder(of: target.id, create: true) else { return }
        let name = current.version.id
        guard linkat(target.parent.raw, target.name, folder.raw, name, 0) == 0 else {
            if errno == EEXIST { return }  // that content is kept already
            throw POSIXFailure(errno: errno, "keep version \(name) of file \(target.id)")
        }
        // Another program may have swapped the entry since it was opened: keep only the file that is replaced.
        if let linked = try folder.status(of: name), !linked.isSameObject(as: target.status) {
            _ = unlinkat(folder.raw, name, 0)
        }
        try? folder.sync()
    }

    /// Unlinks the earlier versions of a located file that ``retention`` lets go now; returns how many.
    @discardableResult
    func applyRetention(to file: Location) throws -> Int {
        let versions = try storedVersions(of: file)
        let expired = retention.expired(versions.map(\.version), now: now())
        guard !expired.isEmpty, let folder = try versionFolder(of: file.id, create: false) else { return 0 }
        return expired.filter { unlinkat(folder.raw, $0, 0) == 0 }.count
    }

    /// Unlinks every earlier version of file `id` and its folder (the file is gone); returns how many.
    @discardableResult
    func removeVersions(of id: ItemID) -> Int {
        guard let folder = try? versionFolder(of: id, create: false) else { return 0 }
        let removed = ((try? folder.entryNames()) ?? []).filter { unlinkat(folder.raw, $0, 0) == 0 }.count
        _ = unlinkat(versions.raw, id.rawValue, AT_REMOVEDIR)
        return removed
    }

    /// The bytes `user`'s files and their earlier versions take, each inode counted once (a hard link made by
    /// another program counts once too). Walks the user's tree.
    func storedBytes(ownedBy user: String) throws -> Int64 {
        guard Self.isValidUser(user), let root = try open(user, in: usersDirectory, path: ["users", user]),
            root.isDirectory
        else { return 0 }
        var seen: Set<[UInt64]> = []
        var total: Int64 = 0
        func count(_ status: FileStatus) {
            if status.kind == .file && seen.insert([status.device, status.inode]).inserted { total += status.size }
        }
        func visit(_ location: Location) throws {
            guard location.isDirectory else {
                count(location.status)
                if let folder = try versionFolder(of: location.id, create: false) {
                    for name in try folder.entryNames() { try folder.status(of: name).map(count) }
                }
                return
            }
            for (name, kind) in try location.entry.entries() {
                if let child = try open(name, in: location.entry, path: location.path + [name], kind: kind) {
                    try visit(child)
                }
            }
        }
        try visit(root)
        return total
    }

    // MARK: Changes

    /// Removes the earlier version `version` of file `id`.
    func deleteVersion(_ version: String, of id: ItemID) throws {
        try lock.withLock {
            let stored = try storedVersion(version, of: locateFile(id))
            guard !stored.version.isCurrent else { throw StorageError.currentVersionKept(version, of: id) }
            guard let folder = try versionFolder(of: id, create: false), unlinkat(folder.raw, version, 0) == 0 else {
                throw StorageError.versionNotFound(version, of: id)
            }
        }
    }

    /// Marks version `version` of file `id` kept or not.
    func keepVersion(_ version: String, of id: ItemID, _ kept: Bool) throws -> FileVersion {
        try lock.withLock {
            let stored = try storedVersion(version, of: locateFile(id))
            try POSIX.setAttribute(POSIX.keptAttribute, to: kept ? "1" : "0", of: stored.entry)
            var described = stored.version
            described.isKept = kept
            return described
        }
    }

    /// Applies retention to every file's versions and removes the versions of files that are gone, then the
    /// temporary files of writes that never finished.
    ///
    /// The tree is walked once without the lock; each version folder is then handled under the lock, and when a
    /// folder's file was not found, one more walk under the lock confirms it is gone before its versions go.
    func collectGarbage() throws -> GarbageReport {
        try rescan()
        var missing: [ItemID] = []
        var retired = 0
        for name in try versions.entryNames() {
            guard let id = ItemID(rawValue: name) else { continue }
            try lock.withLock {
                if let file = locateIndexed(id), !file.isDirectory {
                    retired += try applyRetention(to: file)
                } else {
                    missing.append(id)
                }
            }
        }
        if !missing.isEmpty {
            try lock.withLock {
                try rescan()
                for id in missing where locateIndexed(id) == nil { retired += removeVersions(of: id) }
            }
        }
        return GarbageReport(
            abandonedWrites: removeAbandonedTemporaryFiles(), retiredVersions: retired, expiredLeases: 0)
    }
}
