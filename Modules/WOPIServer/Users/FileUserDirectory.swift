import Foundation

/// A ``UserDirectory`` in one JSON file, safe to share between processes.
///
/// Every read loads the file, so a running host sees users that a CLI added a moment ago. Every change takes an
/// exclusive `flock` on a companion lock file, rewrites a temporary file and renames it over the original, so
/// readers never see a half-written file and two writers never lose each other's changes. Meant for small
/// deployments (tens of users); the SQLite plugin stores users in its database instead.
public struct FileUserDirectory: UserDirectory {
    private let url: URL

    /// Creates a directory backed by the JSON file at `url` (created on first save, mode 0600).
    public init(url: URL) {
        self.url = url
    }

    public func user(_ id: String) async throws -> WOPIUser? {
        try load()[id]
    }

    public func save(_ user: WOPIUser) async throws {
        try withExclusiveLock {
            var users = try load()
            users[user.id] = user
            try store(users)
        }
    }

    public func allUsers() async throws -> [WOPIUser] {
        try load().values.sorted { $0.id < $1.id }
    }

    private func load() throws -> [String: WOPIUser] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        let users = try JSONDecoder().decode([WOPIUser].self, from: Data(contentsOf: url))
        return Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    private func store(_ users: [String: WOPIUser]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(users.values.sorted { $0.id < $1.id })
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

    private func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path + ".lock", O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw CocoaError(.fileLocking) }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
