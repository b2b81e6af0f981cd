public import Crypto
public import Foundation
public import NIOPosix
import WOPIStorage

/// A random secret key kept in a file readable only by its owner (mode 0600).
///
/// The first process to need the key creates it; every later process reads it. The key is written to a temporary
/// file, flushed, and only then linked to its name (``WOPIStorage/AtomicFile/readOrCreate(_:)``), so a racing
/// process either finds no file and links its own (which fails, and it reads the winner's), or reads the whole
/// key: never an empty or partial file, and all agree on one key. Used for the access-token key shared by the host
/// and the tools that mint tokens.
public enum SecretKeyFile {
    /// Loads the key at `url`, creating a new random 32-byte key there (and its folder, mode 0700) if the file does
    /// not exist. The file I/O runs on `threadPool`.
    ///
    /// - Throws: ``WOPIStorage/StorageError`` when the file cannot be read or written, or holds fewer than 32 bytes.
    public static func loadOrCreate(at url: URL, threadPool: NIOThreadPool = .singleton) async throws -> SymmetricKey {
        let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let data = try await AtomicFile(url: url, pool: threadPool).readOrCreate(fresh)
        guard data.count >= 32 else {
            throw StorageError(
                .corrupt,
                "The key file \(url.path) holds \(data.count) bytes, not a key of 32 or more; delete it to make a new "
                    + "key (tokens signed with the old key then stop working).")
        }
        return SymmetricKey(data: data)
    }
}
