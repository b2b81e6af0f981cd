import Crypto
public import Foundation
public import NIOPosix
import WOPIFoundation

/// A ``TokenStore`` that keeps each key's tokens in a JSON file readable only by the owner, for command-line tools.
///
/// The directory is created with mode `0700`. Each file is replaced whole (``WOPIStorage/AtomicFile``): written to
/// a temporary file created with mode `0600`, flushed, renamed over the old one, and the directory flushed, so a
/// reader sees either the old or the new tokens, also after a crash. The file I/O runs on a `NIOThreadPool`, never
/// on Swift's cooperative threads. File names are the SHA-256 of the key, so keys may hold any characters.
public struct FileTokenStore: TokenStore {
    /// The directory holding the token files.
    public let directory: URL
    private let threadPool: NIOThreadPool

    /// Creates a store in a directory, which is created on the first save if missing.
    ///
    /// - Parameter threadPool: the pool that runs the blocking file I/O.
    public init(directory: URL, threadPool: NIOThreadPool = .singleton) {
        self.directory = directory
        self.threadPool = threadPool
    }

    /// The file that holds the tokens of `key`.
    public func fileURL(forKey key: String) -> URL {
        let digest = SHA256.hash(data: Array(key.utf8)).map { String(format: "%02x", $0) }.joined()
        return directory.appendingPathComponent("\(digest).json", isDirectory: false)
    }

    /// Reads the key's file; `nil` if it does not exist.
    public func load(key: String) async throws -> TokenSet? {
        let url = fileURL(forKey: key)
        guard let data = try await storing({ try await file(key).read() }) else { return nil }
        do {
            return try Self.decoder.decode(TokenSet.self, from: data)
        } catch {
            throw OAuthError(
                .storage, "The token file \(url.path) is corrupt; delete it and sign in again.", underlying: error)
        }
    }

    /// Writes the key's file atomically with mode 0600, creating the directory with mode 0700 if needed.
    public func save(_ tokens: TokenSet, key: String) async throws {
        let data: Data
        do {
            data = try Self.encoder.encode(tokens)
        } catch {
            throw OAuthError(.storage, "Could not encode the tokens.", underlying: error)
        }
        try await storing { try await file(key).replace(with: data) }
    }

    /// Removes the key's file, if any.
    public func delete(key: String) async throws {
        try await storing { try await file(key).remove() }
    }

    private func file(_ key: String) -> AtomicFile {
        AtomicFile(url: fileURL(forKey: key), directoryMode: 0o700, pool: threadPool)
    }

    /// Runs a file operation, reporting its failure as an ``OAuthError/Code/storage`` error.
    private func storing<T>(_ operation: () async throws -> T) async throws(OAuthError) -> T {
        do {
            return try await operation()
        } catch let error as StorageError {
            throw OAuthError(.storage, error.message, underlying: error)
        } catch {
            throw OAuthError(
                .storage, "The token store in \(directory.path) failed; check its permissions.", underlying: error)
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
