import Foundation
import Logging
import S3ObjectStore
import WOPIDeployment
import WOPIServer
import WOPIStorage

#if PostgreSQL
    import PostgresStorage
#endif

/// The example host's data directory: everything one small deployment needs, in one folder.
///
/// ```
/// DIR/host.json        which storage this directory uses (written once), which versions it keeps
///                      (`wopi-host retention`) and each user's storage quota (`wopi-host quota`)
/// DIR/secrets/         (0700) token.key: signs WOPI access tokens, shared by `serve` and `token`;
///                      oauth-form.key: signs sign-in forms; office-client-secret: the demo Office client's
/// DIR/wopi.sqlite      sqlite storage (the default): files, versions, locks, users, shares, activities, OAuth
///                      clients, hashed authorization codes and tokens, and failed sign-ins, in one file
/// DIR/files/, DIR/users.json, DIR/shares.json, DIR/activities.json, DIR/oauth.json, DIR/sign-in-failures.json
///                      fs storage: the files as a directory tree; users; shares; AddActivities' comments and
///                      mentions; OAuth clients, codes and tokens; failed sign-ins
/// DIR/server.json      the URL of the running `serve`, so `token` can print a usable WOPISrc
/// ```
/// With `--database postgres://USER@HOST:PORT/DB` (see `DataDirectory+PostgreSQL.swift`), the files, versions,
/// locks, users, shares, activities, OAuth records and the two signing keys live in that PostgreSQL database
/// instead, shared by every host started with the same URL; the folder then keeps only `server.json` and the demo
/// client's secret. With `--object-store s3://BUCKET?endpoint=…`, the content of files (every chunk of 256 KiB or
/// more) is in that bucket instead, beside `wopi.sqlite` or the `--database`.
/// The folder and every folder in it are 0700, every file 0600, on creation and each time it is opened (see
/// `DataDirectory+Privacy.swift`).
struct DataDirectory {
    enum StorageKind: String, Codable, CaseIterable {
        /// One SQLite file holds files, versions, locks, users and OAuth records; several processes may share it.
        case sqlite
        /// A directory tree people can browse; locks live in the serving process.
        case fs
    }

    struct Settings: Codable {
        var storage: StorageKind
        /// Which versions of a file are kept; `nil`: `VersionRetention.standard`.
        var versions: VersionSettings?
        /// The bytes each user's files may take, every kept version included (`wopi-host quota`); `nil`: no quota.
        var quotaBytes: Int64?
    }

    /// The version retention of `host.json`: every process on the directory (or on its `--database`) reads it.
    struct VersionSettings: Codable, Equatable {
        /// The newest versions kept, the current one included; `nil`: no limit.
        var keepLast: Int?
        /// The days a version is kept; `nil`: no limit.
        var keepDays: Double?
        /// The seconds within which an autosave replaces the same user's previous autosave.
        var autosaveGraceSeconds: Double

        init(_ retention: VersionRetention) {
            keepLast = retention.keepLast
            keepDays = retention.keepFor.map { $0 / 86_400 }
            autosaveGraceSeconds = retention.autosaveGracePeriod
        }

        var retention: VersionRetention {
            VersionRetention(
                keepLast: keepLast, keepFor: keepDays.map { $0 * 86_400 }, autosaveGracePeriod: autosaveGraceSeconds)
        }
    }

    /// The versions this directory keeps.
    var versionRetention: VersionRetention { settings.versions?.retention ?? .standard }

    /// The bytes each user's files may take (`WOPIDeployment.Configuration.storageQuota`); `nil`: no quota.
    var storageQuota: Int64? { settings.quotaBytes }

    /// Writes `settings` to `host.json`, for the processes that open the directory from now on.
    func save(_ settings: Settings) throws {
        try JSONEncoder().encode(settings).write(to: url.appendingPathComponent("host.json"), options: .atomic)
    }

    let url: URL
    let settings: Settings
    /// The bucket of `--object-store`, which then holds the content of files.
    var objectStore: S3ObjectStore.Configuration?
    #if PostgreSQL
        /// The PostgreSQL database of `--database`, which then holds every store and the signing keys.
        var database: PostgresPool?
    #else
        /// No PostgreSQL database: this build has none (`make run` builds the demo's needs first).
        var database: Never? { nil }
    #endif

    /// Opens `path`, creating it with `storage` (or the default) when new; refuses a different explicit storage.
    init(path: String, storage requested: StorageKind?) throws {
        url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        Self.createPrivately()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let logger = Logger(label: "wopi-host") { StreamLogHandler.standardError(label: $0) }
        Self.makePrivate(url.resolvingSymlinksInPath(), logger: logger)
        let settingsURL = url.appendingPathComponent("host.json")
        if let data = try? Data(contentsOf: settingsURL) {
            settings = try JSONDecoder().decode(Settings.self, from: data)
            if let requested, requested != settings.storage {
                throw ValidationFailure(
                    "\(path) holds \(settings.storage.rawValue) storage; drop --storage or use another --data folder.")
            }
        } else {
            settings = Settings(storage: requested ?? .sqlite)
            try JSONEncoder().encode(settings).write(to: settingsURL, options: .atomic)
        }
    }

    var isNew: Bool { (try? FileManager.default.contentsOfDirectory(atPath: url.path).count) ?? 0 <= 1 }

    /// Opens the stores of this directory (or of its `--database`).
    func stores() async throws -> DeploymentStores {
        #if PostgreSQL
            if let database {
                var stores =
                    if let objectStore {
                        try await DeploymentStores.postgres(
                            database, versionRetention: versionRetention, objectStore: objectStore)
                    } else {
                        try await DeploymentStores.postgres(database, versionRetention: versionRetention)
                    }
                stores.templates = DeploymentStores.templates(in: url)
                return stores
            }
        #endif
        switch settings.storage {
        case .sqlite:
            if let objectStore {
                return try await DeploymentStores.sqlite(
                    directory: url, versionRetention: versionRetention, objectStore: objectStore)
            }
            return try DeploymentStores.sqlite(directory: url, versionRetention: versionRetention)
        case .fs: return try DeploymentStores.fileSystem(directory: url, versionRetention: versionRetention)
        }
    }

    /// Writes `text` to `DIR/secrets/NAME`, readable only by its owner.
    func writeSecret(_ text: String, named name: String) throws -> URL {
        let file = url.appendingPathComponent("secrets/\(name)")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw ValidationFailure("Cannot write \(file.path); check the data directory's permissions.") }
        try Data((text + "\n").utf8).write(to: file)
        return file
    }

    // MARK: The running server's address

    private var serverFile: URL { url.appendingPathComponent("server.json") }

    func recordServerURL(_ serverURL: String) throws {
        try JSONEncoder().encode(["url": serverURL]).write(to: serverFile, options: .atomic)
    }

    func clearServerURL() { try? FileManager.default.removeItem(at: serverFile) }

    func runningServerURL() -> String? {
        guard let data = try? Data(contentsOf: serverFile) else { return nil }
        return (try? JSONDecoder().decode([String: String].self, from: data))?["url"]
    }
}

/// A user-facing error of the example host: its message says what to do.
struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// `option` needs `trait`, which this build of wopi-host left out (`make run` builds the demo's needs first).
    static func leftOut(_ option: String, trait: String) -> ValidationFailure {
        ValidationFailure(
            "\(option): this wopi-host was built without the \(trait) trait (make run builds the demo's needs first); "
                + "build it whole with `swift build --product wopi-host` (or `make build`).")
    }
}
