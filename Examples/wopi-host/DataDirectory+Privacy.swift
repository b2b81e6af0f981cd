import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The data directory holds password hashes, token hashes, signing keys and every user's files: only its owner may
/// read it. The folder and every folder in it are 0700, every file 0600 (`wopi.sqlite` and its `-wal`/`-shm`
/// included).
extension DataDirectory {
    /// The mode of every directory in the data directory.
    static let directoryMode: mode_t = 0o700
    /// The mode of every file in the data directory.
    static let fileMode: mode_t = 0o600

    /// Makes everything this process creates from now on private (umask 077), so new files (SQLite's included,
    /// which copies the database's mode to its `-wal` and `-shm`) are 0600 and new folders 0700.
    static func createPrivately() {
        umask(0o077)
    }

    /// Takes group and other permissions away from the data directory and everything in it, and warns once, with
    /// the count, when it had to: a deployment made by an earlier version, or opened up by hand.
    ///
    /// Symbolic links are not followed. Runs at start-up, before anything is served.
    static func makePrivate(_ root: URL, logger: Logger) {
        var fixed: [String] = []
        var failed: [String] = []
        func visit(_ path: String) {
            var status = stat()
            guard lstat(path, &status) == 0 else { return }
            let type = status.st_mode & S_IFMT
            guard type == S_IFDIR || type == S_IFREG else { return }
            let wanted = type == S_IFDIR ? directoryMode : fileMode
            if status.st_mode & 0o077 != 0 {
                if chmod(path, wanted) == 0 { fixed.append(path) } else { failed.append(path) }
            }
            guard type == S_IFDIR, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                return
            }
            for name in names { visit(path + "/" + name) }
        }
        visit(root.path)
        if !fixed.isEmpty {
            logger.warning(
                "The data directory was readable by others; made \(fixed.count) item(s) private (folders 0700, files 0600)",
                metadata: ["directory": "\(root.path)", "first": "\(fixed[0])"])
        }
        if !failed.isEmpty {
            logger.error(
                "Cannot make \(failed.count) item(s) in the data directory private; run chmod -R go-rwx on it",
                metadata: ["directory": "\(root.path)", "first": "\(failed[0])"])
        }
    }
}
