public import Crypto
import FileSystemStorage
public import Foundation
public import Logging
public import ServiceLifecycle
public import WOPIAuthorizationServer
public import WOPIServer
public import WOPIStorage

#if PostgreSQL
    import PostgresServerStores
    import PostgresStorage
#endif
#if SQLite
    import SQLiteServerStores
    import SQLiteStorage
#endif

/// Everything a deployment stores: files and locks, users, shares, activities, OAuth records, failed sign-ins
/// and the signing keys, with the background services they need while the host serves.
///
/// Build it with one of the factories (``sqlite(directory:versionRetention:)``,
/// ``fileSystem(directory:versionRetention:)``, ``postgres(_:versionRetention:)``) and replace any part with your
/// own: a provider's `UserDirectory` or `StorageBackend` drops in here, and the rest of the deployment does not
/// change.
///
/// ```swift
/// var stores = try DeploymentStores.sqlite(directory: dataURL)
/// stores.users = MyDirectory(ldap: ldap)   // your users, the rest as it comes
/// ```
public struct DeploymentStores: Sendable {
    /// Where files and containers live.
    public var storage: any StorageBackend
    /// Where WOPI locks live (shared by every host process of the deployment).
    public var locks: any LockStore
    /// Who may sign in.
    public var users: any UserDirectory
    /// Who shares what with whom (and the share links, see `ShareLinks`).
    public var shares: any ShareStore
    /// AddActivities' comments and mentions.
    public var activities: any ActivityLog
    /// OAuth clients, codes and tokens.
    public var oauth: any OAuthStore
    /// Failed sign-ins, so lock-outs survive a restart.
    public var throttle: any SignInThrottleStore
    /// The signing keys (WOPI tokens, share links, sign-in forms, sessions): the same for every host process of
    /// the deployment, so each accepts what another signed.
    public var keys: any SigningKeyStore
    /// The templates new documents can be made from, and which document was made from which; `nil` offers none.
    /// ``WOPIDeployment`` uses it unless `Configuration.host.templates` names a store of its own.
    public var templates: (any TemplateStore)?
    /// What runs beside the host while it serves (a garbage collector, a database pool): started before the HTTP
    /// server, stopped after it, in reverse order.
    public var services: @Sendable (Logger) -> [any Service]
    /// Where sign-ins, token issues, opens, saves, renames, deletes, shares, lock conflicts and proof-key failures
    /// are recorded (Docs/operations.md); `nil` records nothing.
    public var audit: (any AuditLog)?
    /// What `GET /readyz` checks: the database answers, the data folder takes writes (the deployment adds
    /// discovery when it has one).
    public var readiness: [ReadinessCheck]
    /// The files' alternate content streams, content properties and sequence numbers (CSPP Plus incremental file
    /// transfer, used with co-authoring and for WOPIKit's client): in the database for SQLite and PostgreSQL, in
    /// memory otherwise.
    public var contentStreams: any ContentStreamStore = InMemoryContentStreamStore()
    /// The upload sessions of resumable file transfer (CSPP Plus, used with co-authoring and for WOPIKit's client)
    /// and their bytes: in the database for SQLite and PostgreSQL (any host continues a session), in this process
    /// otherwise.
    public var uploadSessions: any UploadSessionStore = InMemoryUploadSessionStore()

    /// The default policy: each user sees their own items, and what ``shares`` shares with them.
    public var sharingPolicy: SharingAccessPolicy { SharingAccessPolicy(storage: storage, shares: shares) }

    /// What authorizes a request in one statement (the user, the item and the shares on its path), when
    /// ``storage``, ``users`` and ``shares`` are the PostgreSQL stores of one database (`PostgresAuthorizationReader`,
    /// one round trip) or the SQLite stores of one file (`SQLiteAuthorizationReader`, one read transaction); `nil`
    /// otherwise, and the host reads them one by one.
    public var authorizationReader: (any AuthorizationReader)? {
        #if PostgreSQL
            if let database = Self.oneDatabase(
                (storage as? PostgresStorage)?.database, (users as? PostgresUserDirectory)?.database,
                (shares as? PostgresShareStore)?.database)
            {
                return PostgresAuthorizationReader(database: database)
            }
        #endif
        #if SQLite
            if let database = Self.oneDatabase(
                (storage as? SQLiteStorage)?.database, (users as? SQLiteUserDirectory)?.database,
                (shares as? SQLiteShareStore)?.database)
            {
                return SQLiteAuthorizationReader(database: database)
            }
        #endif
        return nil
    }

    /// The database of the storage, the users and the shares when it is the same one, or `nil`.
    private static func oneDatabase<Database: AnyObject>(
        _ storage: Database?, _ users: Database?, _ shares: Database?
    ) -> Database? {
        guard let storage, storage === users, storage === shares else { return nil }
        return storage
    }

    /// The deployment's share links: signed with a key derived from the `token` key, recorded in ``shares`` so
    /// they can be listed and revoked.
    public func shareLinks() async throws -> ShareLinks {
        ShareLinks(tokenKey: try await keys.key(named: "token"), store: shares)
    }

    /// Stores of your own.
    public init(
        storage: any StorageBackend, locks: any LockStore, users: any UserDirectory, shares: any ShareStore,
        activities: any ActivityLog, oauth: any OAuthStore, throttle: any SignInThrottleStore,
        keys: any SigningKeyStore, templates: (any TemplateStore)? = nil,
        services: @escaping @Sendable (Logger) -> [any Service] = { _ in [] }, readiness: [ReadinessCheck] = [],
        audit: (any AuditLog)? = nil
    ) {
        self.storage = storage
        self.locks = locks
        self.users = users
        self.shares = shares
        self.activities = activities
        self.oauth = oauth
        self.throttle = throttle
        self.keys = keys
        self.templates = templates
        self.services = services
        self.readiness = readiness
        self.audit = audit
    }

    /// The files as a directory tree people can browse (`DIRECTORY/files`), everything else in JSON files beside
    /// it, the templates in `DIRECTORY/templates/` (``templates(in:)``); locks live in the serving process, so one
    /// process serves the directory. Each save keeps the content it replaces as an earlier version under
    /// `versionRetention` (Docs/versions.md).
    public static func fileSystem(directory: URL, versionRetention: VersionRetention = .standard) throws
        -> DeploymentStores
    {
        let storage = try FileSystemStorage(
            root: directory.appendingPathComponent("files"),
            configuration: FileSystemStorage.Configuration(versionRetention: versionRetention))
        return DeploymentStores(
            storage: storage,
            locks: InMemoryLockStore(), users: FileUserDirectory(url: directory.appendingPathComponent("users.json")),
            shares: FileShareStore(url: directory.appendingPathComponent("shares.json")),
            activities: FileActivityLog(url: directory.appendingPathComponent("activities.json")),
            oauth: FileOAuthStore(url: directory.appendingPathComponent("oauth.json")),
            throttle: FileSignInThrottleStore(url: directory.appendingPathComponent("sign-in-failures.json")),
            keys: DirectorySigningKeys(directory: directory.appendingPathComponent("secrets")),
            templates: templates(in: directory),
            services: { logger in [StorageGarbageCollector(storage: storage, logger: logger)] },
            readiness: [.writableFolder(directory)],
            audit: FileAuditLog(url: directory.appendingPathComponent("audit.jsonl")))
    }

    /// The templates of the data directory `directory`: the files of `DIRECTORY/templates/` (or of
    /// `templateDirectory` when given), and which document was made from which in
    /// `DIRECTORY/template-references.json`, so the reference survives a restart.
    public static func templates(in directory: URL, templateDirectory: URL? = nil) -> DirectoryTemplateStore {
        DirectoryTemplateStore(
            directory: templateDirectory ?? directory.appendingPathComponent("templates"),
            references: directory.appendingPathComponent("template-references.json"))
    }
}

/// Where a deployment keeps its signing keys: each key by name (`token`, `oauth-form`, `session`), created the
/// first time it is asked for and the same in every process of the deployment afterwards.
public protocol SigningKeyStore: Sendable {
    /// The key `name`, created (256 random bits) if there is none yet.
    func key(named name: String) async throws -> SymmetricKey
}

/// Signing keys as files, `DIRECTORY/NAME.key`, readable by their owner only (`SecretKeyFile`).
public struct DirectorySigningKeys: SigningKeyStore {
    /// The folder of the key files.
    public let directory: URL

    /// Keys in `directory`.
    public init(directory: URL) { self.directory = directory }

    public func key(named name: String) async throws -> SymmetricKey {
        try await SecretKeyFile.loadOrCreate(at: directory.appendingPathComponent("\(name).key"))
    }
}
