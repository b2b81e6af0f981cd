import Crypto
import Foundation
import WOPIModels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A ``TokenStore`` that keeps each key's tokens in a JSON file readable only by the owner, for command-line tools.
///
/// The directory is created with mode `0700`; each file is written to a temporary file created with mode `0600`,
/// flushed, and renamed over the old one, so a reader sees either the old or the new tokens. File names are the
/// SHA-256 of the key, so keys may hold any characters.
public struct FileTokenStore: TokenStore {
    /// The directory holding the token files.
    public let directory: URL

    /// Creates a store in a directory, which is created on the first save if missing.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file that holds the tokens of `key`.
    public func fileURL(forKey key: String) -> URL {
        let digest = SHA256.hash(data: Array(key.utf8)).map { String(format: "%02x", $0) }.joined()
        return directory.appendingPathComponent("\(digest).json", isDirectory: false)
    }

    /// Reads the key's file; `nil` if it does not exist.
    public func load(key: String) async throws -> TokenSet? {
        let url = fileURL(forKey: key)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw OAuthError(
                .storage, "Could not read the token file \(url.path); check its permissions.", underlying: error)
        }
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
        try createDirectory()
        let target = fileURL(forKey: key)
        let temporary = directory.appendingPathComponent(".\(Base64URL.randomString(byteCount: 12)).tmp")
        try Self.writeNew(data, to: temporary)
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw Self.posixError("replace \(target.path)", code)
        }
    }

    /// Removes the key's file, if any.
    public func delete(key: String) async throws {
        let path = fileURL(forKey: key).path
        if unlink(path) != 0 && errno != ENOENT {
            throw Self.posixError("delete \(path)", errno)
        }
    }

    private func createDirectory() throws(OAuthError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw OAuthError(.storage, "\(path) exists but is not a directory; choose another token directory.")
            }
            return
        }
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw OAuthError(.storage, "Could not create \(parent.path); check its permissions.", underlying: error)
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Self.posixError("create the directory \(path)", errno)
        }
    }

    /// Creates `url` exclusively with mode 0600 and writes `data` to it durably.
    private static func writeNew(_ data: Data, to url: URL) throws(OAuthError) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw posixError("create \(url.path)", errno) }
        defer { close(descriptor) }
        // Enforce 0600 whatever the umask; the umask can only have removed bits.
        _ = fchmod(descriptor, 0o600)
        let failure: Int32? = data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        if let failure {
            unlink(url.path)
            throw posixError("write \(url.path)", failure)
        }
    }

    private static func posixError(_ action: String, _ code: Int32) -> OAuthError {
        OAuthError(
            .storage,
            "Could not \(action): \(String(cString: strerror(code))); check the directory's permissions "
                + "and free space.")
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
