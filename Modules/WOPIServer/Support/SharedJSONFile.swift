import Foundation

/// A JSON value kept in one file that several processes share (a host and the commands beside it).
///
/// Reads load the whole file, so a process sees another's change at once. ``update(_:)`` takes an exclusive
/// `flock` on a companion `.lock` file, changes the current value, writes a temporary file (mode 0600) and renames
/// it over the original: readers never see a half-written file and two writers never lose each other's changes.
package struct SharedJSONFile<Value: Codable>: Sendable {
    /// The JSON file.
    package let url: URL
    /// The value of a file that does not exist yet.
    package let initial: @Sendable () -> Value

    /// Shares the JSON value at `url`; `initial` is its value while the file does not exist.
    package init(url: URL, initial: @escaping @Sendable () -> Value) {
        self.url = url
        self.initial = initial
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    /// The current value.
    package func read() throws -> Value {
        guard FileManager.default.fileExists(atPath: url.path) else { return initial() }
        return try Self.decoder.decode(Value.self, from: Data(contentsOf: url))
    }

    /// Runs `change` on the current value under the exclusive lock and writes the result back.
    package func update<T>(_ change: (inout Value) throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { flock(fd, LOCK_UN) }
        var value = try read()
        let result = try change(&value)
        try write(value)
        return result
    }

    private func write(_ value: Value) throws {
        let data = try Self.encoder.encode(value)
        let temporary = url.appendingPathExtension("tmp-\(UUID().uuidString)")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path]) }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
