extension StoreTables {
    /// The users of a `UserDirectory`. PostgreSQL's first release already had `sign_in_key`; SQLite adds it in
    /// its own `users.v2`, which fills it in Swift (`SQLiteUserDirectory`).
    package static let users = StoreTables(
        name: "users",
        migrations: [
            Migration("v1") { sql in
                [
                    """
                    CREATE TABLE users (
                      id TEXT PRIMARY KEY NOT NULL, sign_in_name TEXT NOT NULL,
                      \(sql == .postgres ? "sign_in_key TEXT NOT NULL, " : "")display_name TEXT NOT NULL,
                      password_hash TEXT, user_info TEXT)
                    """,
                    sql == .postgres ? "CREATE INDEX users_sign_in_key ON users (sign_in_key)" : nil,
                ].compactMap { $0 }
            }
        ])

    /// The clients, authorization codes and tokens of an `OAuthStore` (codes and tokens by hash), and the token
    /// families revoked after a replay (`v2`).
    package static let oauth = StoreTables(
        name: "oauth",
        migrations: [
            Migration("v1") { sql in
                [
                    "CREATE TABLE oauth_clients (id TEXT PRIMARY KEY NOT NULL, record TEXT NOT NULL)",
                    """
                    CREATE TABLE oauth_codes (
                      hash TEXT PRIMARY KEY NOT NULL, family_id TEXT NOT NULL, expires_at \(sql.real) NOT NULL,
                      record TEXT NOT NULL)
                    """,
                    """
                    CREATE TABLE oauth_tokens (
                      hash TEXT PRIMARY KEY NOT NULL, family_id TEXT NOT NULL, expires_at \(sql.real) NOT NULL,
                      record TEXT NOT NULL)
                    """,
                    "CREATE INDEX oauth_codes_family ON oauth_codes (family_id)",
                    "CREATE INDEX oauth_tokens_family ON oauth_tokens (family_id)",
                ]
            },
            Migration("v2") { sql in
                [
                    "CREATE TABLE oauth_revoked_families (family_id TEXT PRIMARY KEY NOT NULL, until \(sql.real) NOT NULL)"
                ]
            },
        ])

    /// The shares of a `ShareStore`: one row per item and grantee, by grantee and by grantor.
    package static let shares = StoreTables(
        name: "shares",
        migrations: [
            Migration("v1") { sql in
                [
                    """
                    CREATE TABLE shares (
                      item_id TEXT NOT NULL, grantee_id TEXT NOT NULL, permission INTEGER NOT NULL,
                      granted_by TEXT NOT NULL, granted_at \(sql.real) NOT NULL, PRIMARY KEY (item_id, grantee_id))
                    """,
                    "CREATE INDEX shares_grantee ON shares (grantee_id, granted_at)",
                    "CREATE INDEX shares_granted_by ON shares (granted_by, granted_at)",
                ]
            }
        ])

    /// The activities of an `ActivityLog`, in arrival order, by file.
    package static let activities = StoreTables(
        name: "activities",
        migrations: [
            Migration("v1") { sql in
                [
                    """
                    CREATE TABLE activities (
                      seq \(sql.sequenceKey), file_id TEXT NOT NULL, user_id TEXT NOT NULL,
                      received_at \(sql.real) NOT NULL, type TEXT NOT NULL, activity_id TEXT NOT NULL,
                      json TEXT NOT NULL)
                    """,
                    "CREATE INDEX activities_file ON activities (file_id, seq)",
                ]
            }
        ])

    /// The events of an `AuditLog`, in the order recorded, by time.
    package static let audit = StoreTables(
        name: "audit",
        migrations: [
            Migration("v1") { sql in
                [
                    """
                    CREATE TABLE audit_events (
                      seq \(sql.sequenceKey), at \(sql.real) NOT NULL, user_id TEXT, item_id TEXT,
                      json TEXT NOT NULL)
                    """,
                    "CREATE INDEX audit_events_at ON audit_events (at)",
                ]
            }
        ])

    /// The failed sign-ins of a `SignInThrottleStore`, one row per key.
    package static let signInThrottle = StoreTables(
        name: "sign_in_throttle",
        migrations: [
            Migration("v1") { sql in
                [
                    """
                    CREATE TABLE sign_in_failures (
                      key TEXT PRIMARY KEY NOT NULL, count INTEGER NOT NULL, last_failure \(sql.real) NOT NULL)
                    """,
                    "CREATE INDEX sign_in_failures_last ON sign_in_failures (last_failure)",
                ]
            }
        ])

    /// The named signing keys a deployment's processes share (a `SigningKeyStore`).
    package static let keys = StoreTables(
        name: "keys",
        migrations: [
            Migration("v1") { sql in
                ["CREATE TABLE signing_keys (name TEXT PRIMARY KEY NOT NULL, key \(sql.bytes) NOT NULL)"]
            }
        ])

    /// The alternate content streams, content properties and sequence number of each file (a `ContentStreamStore`,
    /// CSPP Plus): one row per file, the sequence number in a column, the record as JSON.
    package static let contentStreams = StoreTables(
        name: "content_streams",
        migrations: [
            Migration("v1") { _ in
                [
                    """
                    CREATE TABLE content_streams (
                      file_id TEXT PRIMARY KEY NOT NULL, sequence_number BIGINT NOT NULL, record TEXT NOT NULL)
                    """
                ]
            }
        ])

    /// The upload sessions of an `UploadSessionStore` (CSPP Plus resumable file transfer) and their bytes, in
    /// pieces of up to 1 MiB: one row per piece of each update attempt, `counted` once the attempt moved the
    /// session's `length` on.
    package static let uploadSessions = StoreTables(
        name: "upload_sessions",
        migrations: [
            Migration("v1") { sql in
                [
                    """
                    CREATE TABLE upload_sessions (
                      token TEXT PRIMARY KEY NOT NULL, file_id TEXT NOT NULL, user_id TEXT NOT NULL,
                      length BIGINT NOT NULL, expires_at \(sql.real) NOT NULL)
                    """,
                    "CREATE INDEX upload_sessions_expiry ON upload_sessions (expires_at)",
                    """
                    CREATE TABLE upload_session_pieces (
                      token TEXT NOT NULL, attempt TEXT NOT NULL, start_at BIGINT NOT NULL,
                      counted INTEGER NOT NULL DEFAULT 0, bytes \(sql.bytes) NOT NULL,
                      PRIMARY KEY (token, attempt, start_at))
                    """,
                    "CREATE INDEX upload_session_pieces_counted ON upload_session_pieces (token, counted, start_at)",
                ]
            }
        ])
}
