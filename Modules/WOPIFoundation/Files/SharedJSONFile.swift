package import Foundation
package import NIOPosix

/// A JSON value kept in one file that several processes share (a host and the commands beside it).
///
/// Reads load the whole file, so a process sees another's change at once. ``update(_:)`` changes the value under an
/// exclusive lock that every process honours and writes it back atomically and durably with mode 0600
/// (``WOPIStorage/AtomicFile``): readers never see a half-written file and two writers never lose each other's
/// changes. The file I/O runs on a `NIOThreadPool`, never on Swift's cooperative threads.
package struct SharedJSONFile<Value: Codable & Sendable>: Sendable {
    /// The JSON file.
    package var url: URL { file.url }
    /// The value of a file that does not exist yet.
    package let initial: @Sendable () -> Value
    private let file: AtomicFile

    /// Describes the file at `url`; its folder is created on the first write.
    package init(url: URL, threadPool: NIOThreadPool, initial: @escaping @Sendable () -> Value) {
        file = AtomicFile(url: url, directoryMode: 0o755, pool: threadPool)
        self.initial = initial
    }

    /// The current value.
    package func read() async throws -> Value {
        guard let data = try await file.read() else { return initial() }
        return try Self.decode(data, from: url)
    }

    /// Runs `change` on the current value under the exclusive lock and writes the result back.
    ///
    /// `change` runs on a thread of the pool while the lock is held: keep it short.
    package func update<T: Sendable>(_ change: @escaping @Sendable (inout Value) throws -> T) async throws -> T {
        try await file.update { [url, initial] data in
            var value = try data.map { try Self.decode($0, from: url) } ?? initial()
            let result = try change(&value)
            return (try Self.encoder.encode(value), result)
        }
    }

    private static func decode(_ data: Data, from url: URL) throws -> Value {
        do {
            return try decoder.decode(Value.self, from: data)
        } catch {
            throw StorageError(
                .corrupt,
                "\(url.path) does not hold the JSON this store writes; restore it from a backup or correct it by hand.",
                underlying: error)
        }
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
}
