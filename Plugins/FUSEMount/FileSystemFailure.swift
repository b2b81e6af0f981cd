import Foundation
import WOPIStorage

/// A failure of one file-system operation, carrying the `errno` that the FUSE reply reports.
struct FileSystemFailure: Error, CustomStringConvertible {
    /// The positive `errno` value (`ENOENT`, `EIO`, ...).
    let code: Int32
    /// What went wrong, for the log.
    let message: String

    init(_ code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "\(message) (errno \(code))" }

    /// The `errno` a FUSE reply should carry for `error`.
    ///
    /// Backend errors map to their POSIX meaning: `notFound`→`ENOENT`, `nameConflict`→`EEXIST`,
    /// `invalidName`→`EINVAL`, `notEmpty`→`ENOTEMPTY`, `crossContainerMove`→`EXDEV` (so that `mv` falls back to
    /// copying), `notAFile`→`EISDIR`, `notAContainer`→`ENOTDIR`, `unsupported`→`ENOTSUP`, `tooLarge`→`EFBIG`,
    /// `permissionDenied`→`EACCES`;
    /// a missed deadline is `ETIMEDOUT`, everything else `EIO`.
    static func errno(for error: any Error) -> Int32 {
        switch error {
        case let failure as FileSystemFailure:
            return failure.code
        case is DeadlineExceeded:
            return ETIMEDOUT
        case let storage as StorageError:
            switch storage.code {
            case .notFound: return ENOENT
            case .nameConflict: return EEXIST
            case .invalidName: return EINVAL
            case .notEmpty: return ENOTEMPTY
            case .crossContainerMove: return EXDEV
            case .notAFile: return EISDIR
            case .notAContainer: return ENOTDIR
            case .unsupported: return ENOTSUP
            case .tooLarge: return EFBIG
            case .permissionDenied: return EACCES
            default: return EIO
            }
        default:
            return EIO
        }
    }

    /// Checks that `name` can name a new item, before any backend call.
    ///
    /// - Throws: `ENAMETOOLONG` above 255 UTF-8 bytes, `EINVAL` for other names the backend would reject.
    static func checkName(_ name: String) throws {
        if name.utf8.count > StorageName.maximumUTF8Length {
            throw FileSystemFailure(ENAMETOOLONG, "The name \"\(name.prefix(40))…\" is longer than 255 bytes.")
        }
        if let problem = StorageName.problem(with: name) {
            throw FileSystemFailure(EINVAL, "The name \"\(name)\" cannot be stored: \(problem).")
        }
    }

    /// The failure for an inode this mount does not know (the kernel asked about a stale one).
    static func staleInode(_ inode: UInt64) -> FileSystemFailure {
        FileSystemFailure(ESTALE, "Inode \(inode) is not known to this mount.")
    }
}
