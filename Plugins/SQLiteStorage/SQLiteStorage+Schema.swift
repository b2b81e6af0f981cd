import ChunkedVersionStore
import GRDB

extension SQLiteStorage {
    /// The tables of the storage backend: items, file versions, content chunks and read leases.
    ///
    /// This migration is the one definition of these tables; `Docs/sqlite-storage.md` describes what their rows
    /// mean. Never edit a migration that has shipped: append a new one.
    public static let schema: SQLiteSchema = {
        var schema = SQLiteSchema(name: "storage")
        schema.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE items (
                      id TEXT PRIMARY KEY NOT NULL,
                      parent_id TEXT REFERENCES items(id),
                      owner_id TEXT NOT NULL,
                      kind TEXT NOT NULL CHECK (kind IN ('file', 'container')),
                      name TEXT NOT NULL,
                      created_at REAL NOT NULL,
                      modified_at REAL NOT NULL,
                      current_version_id INTEGER REFERENCES file_versions(id),
                      CHECK ((kind = 'file') = (current_version_id IS NOT NULL)),
                      CHECK (kind = 'container' OR parent_id IS NOT NULL),
                      UNIQUE (parent_id, name)
                    );
                    CREATE UNIQUE INDEX items_user_root ON items(owner_id) WHERE parent_id IS NULL;
                    CREATE INDEX items_current_version ON items(current_version_id);
                    CREATE TABLE file_versions (
                      id INTEGER PRIMARY KEY AUTOINCREMENT,
                      file_id TEXT REFERENCES items(id) ON DELETE SET NULL,
                      state TEXT NOT NULL CHECK (state IN ('writing', 'complete')),
                      chunk_size INTEGER NOT NULL CHECK (chunk_size > 0),
                      size INTEGER NOT NULL DEFAULT 0,
                      sha256 BLOB,
                      created_at REAL NOT NULL,
                      committed_at REAL,
                      write_expires_at REAL
                    );
                    CREATE INDEX file_versions_file ON file_versions(file_id);
                    CREATE INDEX file_versions_writing ON file_versions(write_expires_at) WHERE state = 'writing';
                    CREATE TABLE content_chunks (
                      version_id INTEGER NOT NULL REFERENCES file_versions(id) ON DELETE CASCADE,
                      chunk_index INTEGER NOT NULL,
                      data BLOB NOT NULL,
                      PRIMARY KEY (version_id, chunk_index)
                    );
                    CREATE TABLE version_leases (
                      id INTEGER PRIMARY KEY,
                      version_id INTEGER NOT NULL REFERENCES file_versions(id) ON DELETE CASCADE,
                      expires_at REAL NOT NULL
                    );
                    CREATE INDEX version_leases_version ON version_leases(version_id);
                    """)
        }
        // The content-defined chunk layout (Docs/sqlite-storage.md); versions written before it stay readable.
        schema.registerMigration("v2") { db in
            for statement in ChunkSQL.migration(blob: "BLOB") { try db.execute(sql: statement) }
        }
        // Chunk files beside the database (Docs/sqlite-storage.md); chunks stored before stay pieces in it.
        schema.registerMigration("v3") { db in
            for statement in ChunkSQL.fileMigration { try db.execute(sql: statement) }
        }
        // Version history (Docs/versions.md); versions saved before have no user or path.
        schema.registerMigration("v4") { db in
            for statement in VersionHistorySQL.migration { try db.execute(sql: statement) }
        }
        return schema
    }()
}
