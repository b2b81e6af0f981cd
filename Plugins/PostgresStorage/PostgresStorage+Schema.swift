import ChunkedVersionStore

extension PostgresStorage {
    /// The tables of the storage backend: items, file versions, content chunks and read leases.
    ///
    /// This migration is the one definition of these tables; `Docs/running-several-hosts.md` describes them.
    /// Never edit a migration that has shipped: append a new one.
    public static let schema: PostgresSchema = {
        var schema = PostgresSchema(name: "storage")
        schema.registerMigration(
            "v1",
            statements: [
                """
                CREATE TABLE file_versions (
                  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                  file_id TEXT,
                  state TEXT NOT NULL CHECK (state IN ('writing', 'complete')),
                  chunk_size INTEGER NOT NULL CHECK (chunk_size > 0),
                  size BIGINT NOT NULL DEFAULT 0,
                  sha256 BYTEA,
                  created_at DOUBLE PRECISION NOT NULL,
                  committed_at DOUBLE PRECISION,
                  write_expires_at DOUBLE PRECISION)
                """,
                "CREATE INDEX file_versions_writing ON file_versions (write_expires_at) WHERE state = 'writing'",
                """
                CREATE TABLE items (
                  id TEXT PRIMARY KEY,
                  parent_id TEXT REFERENCES items (id),
                  owner_id TEXT NOT NULL,
                  kind TEXT NOT NULL CHECK (kind IN ('file', 'container')),
                  name TEXT NOT NULL,
                  created_at DOUBLE PRECISION NOT NULL,
                  modified_at DOUBLE PRECISION NOT NULL,
                  current_version_id BIGINT REFERENCES file_versions (id),
                  CHECK ((kind = 'file') = (current_version_id IS NOT NULL)),
                  CHECK (kind = 'container' OR parent_id IS NOT NULL),
                  UNIQUE (parent_id, name))
                """,
                "CREATE UNIQUE INDEX items_user_root ON items (owner_id) WHERE parent_id IS NULL",
                "CREATE INDEX items_current_version ON items (current_version_id)",
                """
                CREATE TABLE content_chunks (
                  version_id BIGINT NOT NULL REFERENCES file_versions (id) ON DELETE CASCADE,
                  chunk_index INTEGER NOT NULL,
                  data BYTEA NOT NULL,
                  PRIMARY KEY (version_id, chunk_index))
                """,
                // Chunks are already compressed documents, mostly: storing them as is spares the CPU.
                "ALTER TABLE content_chunks ALTER COLUMN data SET STORAGE EXTERNAL",
                """
                CREATE TABLE version_leases (
                  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                  version_id BIGINT NOT NULL REFERENCES file_versions (id) ON DELETE CASCADE,
                  expires_at DOUBLE PRECISION NOT NULL)
                """,
                "CREATE INDEX version_leases_version ON version_leases (version_id)",
            ])
        // The content-defined chunk layout (Docs/running-several-hosts.md); versions written before it stay
        // readable.
        schema.registerMigration(
            "v2",
            statements: ChunkSQL.migration(blob: "BYTEA") + [
                "ALTER TABLE chunk_pieces ALTER COLUMN data SET STORAGE EXTERNAL"
            ])
        // `chunks.in_file`, which the engine reads for SQLite's chunk files; always 0 here.
        schema.registerMigration("v3", statements: ChunkSQL.fileMigration)
        // Version history (Docs/versions.md); versions saved before have no user or path.
        schema.registerMigration("v4", statements: VersionHistorySQL.migration)
        return schema
    }()
}
