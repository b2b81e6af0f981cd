import Crypto
import Foundation

/// A random secret key kept in a file readable only by its owner (mode 0600).
///
/// The first process to need the key creates it (exclusively, so two racing processes agree on one key); every
/// later process reads it. Used for the access-token key shared by the host and the tools that mint tokens.
public enum SecretKeyFile {
    /// Loads the key at `url`, creating a new random 32-byte key there if the file does not exist.
    public static func loadOrCreate(at url: URL) throws -> SymmetricKey {
        let manager = FileManager.default
        try manager.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if !manager.fileExists(atPath: url.path) {
            let key = SymmetricKey(size: .bits256)
            let bytes = key.withUnsafeBytes { Data($0) }
            let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            if fd >= 0 {
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                fsync(fd)
                close(fd)
                guard written == bytes.count else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
                }
            } else if errno != EEXIST {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let data = try Data(contentsOf: url)
        guard data.count >= 32 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return SymmetricKey(data: data)
    }
}
