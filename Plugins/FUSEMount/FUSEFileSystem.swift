import CFuse3
import Foundation
import Logging
import WOPIStorage

/// The file-system operations of one mount, in Swift terms: inodes in, attributes and handles out.
///
/// Nothing here blocks on the backend: asynchronous methods are awaited from tasks that the FUSE callbacks
/// start (see ``LowLevelOperations``), and synchronous methods touch only memory and the local cache files.
final class FUSEFileSystem: Sendable {
    let environment: MountEnvironment
    let inodes: InodeTable
    let openFiles = OpenFiles()
    /// Times set with `utimensat`, reported while the item is unchanged.
    let keptTimes = KeptTimes()
    /// Modes, owners and change times set through the mount, checked by the kernel (`default_permissions`).
    let keptAttributes: KeptAttributes

    init(environment: MountEnvironment, root: ItemID) {
        self.environment = environment
        self.inodes = InodeTable(root: root)
        self.keptAttributes = KeptAttributes(owner: getuid(), group: getgid(), umask: KeptAttributes.currentUmask())
    }

    var backend: any StorageBackend { environment.backend }
    var directoryCache: DirectoryCache { environment.directoryCache }
    var configuration: FUSEMount.Configuration { environment.configuration }
    var logger: Logger { environment.logger }

    // MARK: - Attributes

    /// The POSIX attributes of `item`: the mode, owner and group set through the mount (``KeptAttributes``;
    /// by default the mounting user's, with the mode its umask gives); a file open for writing here reports its
    /// local size and modification time; a time set through the mount is reported while the item is unchanged
    /// (``KeptTimes``); the change time is the later of the modification and the last attribute change.
    func attributes(of item: StorageItem) -> stat {
        var info = stat()
        let isContainer = if case .container = item { true } else { false }
        let kept = keptAttributes.entry(for: item.id, isContainer: isContainer)
        info.st_ino = .init(inodes.inode(for: item.id))
        info.st_uid = kept.owner
        info.st_gid = kept.group
        info.st_blksize = 4096
        let modified: Date
        switch item {
        case .file(let file):
            let session = openFiles.session(for: file.id)
            let size = session?.localSize ?? file.size
            info.st_mode = S_IFREG | kept.permissions
            info.st_nlink = 1
            info.st_size = .init(size)
            info.st_blocks = .init((size + 511) / 512)
            modified =
                keptTimes.time(for: item, pendingUpload: session != nil) ?? session?.modified ?? file.lastModified
        case .container(let container):
            info.st_mode = S_IFDIR | kept.permissions
            info.st_nlink = 2
            info.st_size = 4096
            info.st_blocks = 8
            modified = keptTimes.time(for: item, pendingUpload: false) ?? container.lastModified
        }
        info.st_mtim = Self.timespec(of: modified)
        info.st_atim = kept.accessed.map(Self.timespec(of:)) ?? info.st_mtim
        info.st_ctim = Self.timespec(of: max(modified, kept.changed ?? modified))
        return info
    }

    /// The reply to a lookup: inode, attributes and how long the kernel may cache them.
    func entry(for item: StorageItem) -> fuse_entry_param {
        var entry = fuse_entry_param()
        entry.ino = inodes.inode(for: item.id)
        entry.generation = 1
        entry.attr = attributes(of: item)
        entry.attr_timeout = configuration.attributeCacheTTL.timeInterval
        entry.entry_timeout = configuration.directoryCacheTTL.timeInterval
        return entry
    }

    /// `date` to the microsecond (a `Date` holds no more than that exactly, so a time set to a whole number of
    /// microseconds reads back as set).
    private static func timespec(of date: Date) -> Foundation.timespec {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let seconds = (microseconds / 1_000_000).rounded(.down)
        return Foundation.timespec(tv_sec: Int(seconds), tv_nsec: Int(microseconds - seconds * 1_000_000) * 1000)
    }

    // MARK: - Lookup and attributes

    /// Finds `name` in the directory `parent`.
    func lookup(parent: UInt64, name: String) async throws -> fuse_entry_param {
        let parentID = try inodes.requireItem(for: parent)
        if name.utf8.count > StorageName.maximumUTF8Length {
            throw FileSystemFailure(ENAMETOOLONG, "The name is longer than 255 bytes.")
        }
        guard StorageName.problem(with: name) == nil, let item = try await listing(of: parentID)[name] else {
            throw FileSystemFailure(ENOENT, "No item named \"\(name)\" here.")
        }
        return entry(for: item)
    }

    /// The attributes of an inode, fresh from the backend.
    func attributes(of inode: UInt64) async throws -> stat {
        try attributes(of: await backend.item(inodes.requireItem(for: inode)))
    }

    /// The children of a container by name, through the directory cache.
    func listing(of container: ItemID) async throws -> [String: StorageItem] {
        try await directoryCache.children(of: container) { try await backend.children(of: container) }
    }

    /// The child `name` of the directory `parent`, fresh from the backend.
    func child(named name: String, in parent: ItemID) async throws -> StorageItem {
        guard let item = try await backend.child(named: name, in: parent) else {
            throw FileSystemFailure(ENOENT, "No item named \"\(name)\" here.")
        }
        return item
    }

    /// File-system statistics: the space left in the cache directory (where written files wait for upload).
    func statistics() -> statvfs {
        var cache = statvfs()
        var result = statvfs()
        if statvfs(configuration.cacheDirectory, &cache) == 0 {
            result.f_bsize = cache.f_bsize
            result.f_frsize = cache.f_frsize
            result.f_blocks = cache.f_blocks
            result.f_bfree = cache.f_bfree
            result.f_bavail = cache.f_bavail
        } else {
            result.f_bsize = 4096
            result.f_frsize = 4096
            result.f_blocks = 1 << 28
            result.f_bfree = 1 << 28
            result.f_bavail = 1 << 28
        }
        let files: UInt = 1 << 24
        result.f_files = .init(files)
        result.f_ffree = .init(files - UInt(min(inodes.count, Int(files))))
        result.f_favail = result.f_ffree
        result.f_namemax = .init(StorageName.maximumUTF8Length)
        return result
    }

    /// Throws `EROFS` on a read-only mount.
    func checkWritable() throws {
        if configuration.readOnly { throw FileSystemFailure(EROFS, "The mount is read-only.") }
    }
}
