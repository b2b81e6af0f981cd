package import Foundation
import WOPIChunking

/// The SQL of the content-defined chunk layout, on the tables `chunks` (one row per distinct ``ChunkID``),
/// `chunk_pieces` (a chunk's bytes in fixed-size pieces) and `version_chunks` (a version's ordered chunk list).
///
/// A chunk's pieces are written while its bytes stream in, before its ID is known, under the key of the version
/// writing it and the chunk's index in that version (`version_id`, `chunk_index`). When the chunk ends, one
/// statement keys it (`chunks`, unless a chunk with that ID is stored already), one adds it to the version's list
/// and one deletes the pieces again when another copy won: a chunk is stored once per database.
package enum ChunkSQL {
    /// The schema of the layout, in the types of a database (`blob`: `BLOB` or `BYTEA`); the old fixed-size
    /// `content_chunks` stay readable for the versions written before it (`file_versions.layout = 'fixed'`).
    package static func migration(blob: String) -> [String] {
        [
            "ALTER TABLE file_versions ADD COLUMN layout TEXT NOT NULL DEFAULT 'fixed'",
            "ALTER TABLE file_versions ADD COLUMN is_zip INTEGER NOT NULL DEFAULT 0",
            """
            CREATE TABLE chunks (
              chunk_id \(blob) PRIMARY KEY NOT NULL,
              staged_version_id BIGINT NOT NULL,
              staged_index INTEGER NOT NULL,
              length BIGINT NOT NULL,
              piece_size INTEGER NOT NULL CHECK (piece_size > 0))
            """,
            "CREATE INDEX chunks_staged ON chunks (staged_version_id, staged_index)",
            """
            CREATE TABLE chunk_pieces (
              version_id BIGINT NOT NULL,
              chunk_index INTEGER NOT NULL,
              piece_index INTEGER NOT NULL,
              data \(blob) NOT NULL,
              PRIMARY KEY (version_id, chunk_index, piece_index))
            """,
            """
            CREATE TABLE version_chunks (
              version_id BIGINT NOT NULL REFERENCES file_versions (id) ON DELETE CASCADE,
              chunk_index INTEGER NOT NULL,
              chunk_id \(blob) NOT NULL REFERENCES chunks (chunk_id) DEFERRABLE INITIALLY DEFERRED,
              start_offset BIGINT NOT NULL,
              length BIGINT NOT NULL,
              PRIMARY KEY (version_id, chunk_index))
            """,
            "CREATE INDEX version_chunks_chunk ON version_chunks (chunk_id)",
        ]
    }

    /// The schema of chunk files (``ChunkFiles``): `chunks.in_file` is 1 for a chunk whose bytes are a file beside
    /// the database rather than pieces in it. Every chunk stored before is pieces.
    package static let fileMigration = ["ALTER TABLE chunks ADD COLUMN in_file INTEGER NOT NULL DEFAULT 0"]

    /// A chunk's bytes from one piece on, as the writer hands them over.
    package struct Piece: Sendable {
        package var chunkIndex: Int
        package var pieceIndex: Int
        package var data: Data
    }

    /// A chunk of a version whose bytes are all written: its ID, place and length.
    struct Key {
        var chunkIndex: Int
        var id: ChunkID
        var offset: Int64
        var length: Int64
        /// Whether its bytes are a file (``ChunkFiles``), else pieces in the database.
        var inFile = false
    }

    /// Stores `pieces` under the staging key of `versionID`: one multi-row `INSERT`.
    static func insertPieces(_ pieces: ArraySlice<Piece>, of versionID: Int64) -> SQLStatement {
        var arguments: [SQLArgument] = []
        arguments.reserveCapacity(pieces.count * 4)
        for piece in pieces {
            arguments += [
                .integer(versionID), .integer(Int64(piece.chunkIndex)), .integer(Int64(piece.pieceIndex)),
                .blob(piece.data),
            ]
        }
        let rows = repeatElement("(?, ?, ?, ?)", count: pieces.count).joined(separator: ", ")
        return SQLStatement(
            "INSERT INTO chunk_pieces (version_id, chunk_index, piece_index, data) VALUES \(rows)", arguments)
    }

    /// The statements that key chunks `keys` (consecutive, all pieces written) of `versionID`: store each ID
    /// unless it is stored already, list the chunks in the version, and delete the pieces of the copies that
    /// lost.
    static func key(_ keys: ArraySlice<Key>, of versionID: Int64, pieceSize: Int) -> [SQLStatement] {
        guard let first = keys.first, let last = keys.last else { return [] }
        var listArguments: [SQLArgument] = []
        var firstOfID: [ChunkID: Key] = [:]
        for key in keys {
            if firstOfID[key.id] == nil { firstOfID[key.id] = key }
            listArguments += [
                .integer(versionID), .integer(Int64(key.chunkIndex)), .blob(Data(key.id.bytes)), .integer(key.offset),
                .integer(key.length),
            ]
        }
        // One row per ID (PostgreSQL's `ON CONFLICT DO UPDATE` may not touch a row twice in a statement), in ID
        // order, so that two saves sharing chunks lock them in the same order.
        var chunkArguments: [SQLArgument] = []
        for key in firstOfID.values.sorted(by: { $0.id.bytes.lexicographicallyPrecedes($1.id.bytes) }) {
            chunkArguments += [
                .blob(Data(key.id.bytes)), .integer(versionID), .integer(Int64(key.chunkIndex)), .integer(key.length),
                .integer(Int64(pieceSize)), .integer(key.inFile ? 1 : 0),
            ]
        }
        return [
            // The update of a chunk stored already locks its row until the list below commits, so that
            // garbage collection on another host (which skips locked chunks) cannot take it meanwhile.
            SQLStatement(
                """
                INSERT INTO chunks (chunk_id, staged_version_id, staged_index, length, piece_size, in_file)
                VALUES \(rows(firstOfID.count, columns: 6)) ON CONFLICT (chunk_id) DO UPDATE SET length = excluded.length
                """, chunkArguments),
            SQLStatement(
                """
                INSERT INTO version_chunks (version_id, chunk_index, chunk_id, start_offset, length)
                VALUES \(rows(keys.count))
                """, listArguments),
            SQLStatement(
                """
                DELETE FROM chunk_pieces
                WHERE version_id = ? AND chunk_index >= ? AND chunk_index <= ?
                  AND NOT EXISTS (SELECT 1 FROM chunks c
                                  WHERE c.staged_version_id = chunk_pieces.version_id
                                    AND c.staged_index = chunk_pieces.chunk_index)
                """, [.integer(versionID), .integer(Int64(first.chunkIndex)), .integer(Int64(last.chunkIndex))]),
        ]
    }

    /// `count` rows of `columns` placeholders, for a multi-row `INSERT`.
    private static func rows(_ count: Int, columns: Int = 5) -> String {
        let row = "(" + repeatElement("?", count: columns).joined(separator: ", ") + ")"
        return repeatElement(row, count: count).joined(separator: ", ")
    }

    /// The indexes, among `indexes`, of the chunks of `versionID` keyed as stored in its own files; its other
    /// chunk files lost to a copy stored before, and are removed.
    static func keptFiles(of versionID: Int64, _ indexes: ClosedRange<Int>) -> SQLStatement {
        SQLStatement(
            """
            SELECT staged_index FROM chunks
            WHERE staged_version_id = ? AND staged_index >= ? AND staged_index <= ? AND in_file = 1
            """,
            [.integer(versionID), .integer(Int64(indexes.lowerBound)), .integer(Int64(indexes.upperBound))],
            columns: [.integer])
    }

    /// What the database keeps of the chunk bodies of version `versionID`, in one statement (one snapshot): `-1`
    /// while it is being written, and the staging index of each of its chunks stored as a body that a `chunks` row
    /// names; ``storedBodies(_:)`` reads its rows.
    package static func storedBodies(of versionID: Int64) -> SQLStatement {
        SQLStatement(
            """
            SELECT -1 FROM file_versions WHERE id = ? AND state = 'writing'
            UNION ALL SELECT staged_index FROM chunks WHERE staged_version_id = ? AND in_file = 1
            """, [.integer(versionID), .integer(versionID)], columns: [.integer])
    }

    /// The rows of ``storedBodies(of:)``: `nil` while the version is being written, else the staging indexes of its
    /// bodies that a row names (none when the version is gone).
    package static func storedBodies(_ rows: [SQLRow]) -> Set<Int64>? {
        let indexes = rows.compactMap { $0.first?.integer }
        return indexes.contains(-1) ? nil : Set(indexes)
    }

    /// Up to `limit` chunks of a version that end after `offset`, in order: index, start, length, and where
    /// their pieces are (staging version, staging index, piece size).
    static func chunkList(of versionID: Int64, endingAfter offset: Int64, limit: Int) -> SQLStatement {
        SQLStatement(
            """
            SELECT v.chunk_index, v.start_offset, v.length, c.staged_version_id, c.staged_index, c.piece_size,
                   c.in_file
            FROM version_chunks v JOIN chunks c ON c.chunk_id = v.chunk_id
            WHERE v.version_id = ? AND v.start_offset + v.length > ?
            ORDER BY v.chunk_index LIMIT ?
            """, [.integer(versionID), .integer(offset), .integer(Int64(limit))],
            columns: [.integer, .integer, .integer, .integer, .integer, .integer, .integer])
    }

    /// The pieces `pieces` of each stored chunk of `chunks` (staging version, staging index): version, index,
    /// piece index and data.
    static func pieces(_ chunks: [(stored: PieceKey, pieces: Range<Int64>)]) -> SQLStatement {
        var arguments: [SQLArgument] = []
        var conditions: [String] = []
        for (stored, pieces) in chunks {
            conditions.append("(version_id = ? AND chunk_index = ? AND piece_index >= ? AND piece_index < ?)")
            arguments += [
                .integer(stored.versionID), .integer(stored.chunkIndex), .integer(pieces.lowerBound),
                .integer(pieces.upperBound),
            ]
        }
        return SQLStatement(
            """
            SELECT version_id, chunk_index, piece_index, data FROM chunk_pieces
            WHERE \(conditions.joined(separator: " OR "))
            """, arguments, columns: [.integer, .integer, .integer, .blob])
    }

    /// A version's whole chunk list: ID, start and length, in order.
    package static func contentChunks(of versionID: Int64) -> SQLStatement {
        SQLStatement(
            "SELECT chunk_id, start_offset, length FROM version_chunks WHERE version_id = ? ORDER BY chunk_index",
            [.integer(versionID)], columns: [.blob, .integer, .integer])
    }

    /// Deletes version `versionID` when `condition` holds for its row `f` (`arguments` are the condition's), with
    /// the chunks only it lists and their pieces, and the pieces it staged that no chunk owns. The chunks go before
    /// the version's list (the list's reference to them is checked at commit); `skipLocked` as
    /// ``collectChunks(skipLocked:)`` takes it.
    static func discard(_ versionID: Int64, when condition: String, _ arguments: [SQLArgument], skipLocked: String)
        -> [SQLStatement]
    {
        let version = SQLArgument.integer(versionID)
        let exclusive = """
            FROM chunks c
            WHERE c.chunk_id IN (SELECT chunk_id FROM version_chunks WHERE version_id = ?)
              AND NOT EXISTS (SELECT 1 FROM version_chunks o WHERE o.chunk_id = c.chunk_id AND o.version_id <> ?)
              AND EXISTS (SELECT 1 FROM file_versions f WHERE f.id = ? AND \(condition)) \(skipLocked)
            """
        let exclusiveArguments = [version, version, version] + arguments
        return [
            SQLStatement(
                """
                DELETE FROM chunk_pieces
                WHERE (version_id, chunk_index) IN (SELECT c.staged_version_id, c.staged_index \(exclusive))
                """, exclusiveArguments),
            SQLStatement(
                """
                DELETE FROM chunks WHERE chunk_id IN (SELECT c.chunk_id \(exclusive))
                RETURNING staged_version_id, staged_index, in_file
                """, exclusiveArguments, columns: removedColumns, removesChunks: true),
            SQLStatement(
                "DELETE FROM file_versions WHERE id IN (SELECT f.id FROM file_versions f WHERE f.id = ? AND \(condition))",
                [version] + arguments),
            SQLStatement(
                """
                DELETE FROM chunk_pieces
                WHERE version_id = ? AND NOT EXISTS (SELECT 1 FROM file_versions WHERE id = ?)
                  AND NOT EXISTS (SELECT 1 FROM chunks c
                                  WHERE c.staged_version_id = chunk_pieces.version_id
                                    AND c.staged_index = chunk_pieces.chunk_index)
                """, [version, version]),
        ]
    }

    /// Deletes chunks no version lists, and returns a row per chunk. `skipLocked` keeps it off chunks a writer is
    /// listing right now (PostgreSQL's `FOR UPDATE SKIP LOCKED`; SQLite runs one writer at a time).
    static func collectChunks(skipLocked: String) -> SQLStatement {
        SQLStatement(
            """
            DELETE FROM chunks WHERE chunk_id IN (
              SELECT chunk_id FROM chunks c
              WHERE NOT EXISTS (SELECT 1 FROM version_chunks v WHERE v.chunk_id = c.chunk_id) \(skipLocked))
            RETURNING staged_version_id, staged_index, in_file
            """, columns: removedColumns, removesChunks: true)
    }

    /// The columns of a statement that ``SQLStatement/removesChunks``.
    private static let removedColumns: [SQLStatement.Column] = [.integer, .integer, .integer]

    /// Deletes pieces that belong to no chunk and to no write in progress (a chunk collected, or a write that died
    /// before keying it), and returns a row per piece.
    static let collectPieces = SQLStatement(
        """
        DELETE FROM chunk_pieces
        WHERE NOT EXISTS (SELECT 1 FROM chunks c
                          WHERE c.staged_version_id = chunk_pieces.version_id
                            AND c.staged_index = chunk_pieces.chunk_index)
          AND NOT EXISTS (SELECT 1 FROM file_versions f
                          WHERE f.id = chunk_pieces.version_id AND f.state = 'writing')
        RETURNING 1
        """, columns: [.integer])
}

/// Where a chunk's pieces are stored: the version that wrote it first and the chunk's index there.
package struct PieceKey: Hashable, Sendable {
    package var versionID: Int64
    package var chunkIndex: Int64

    package init(versionID: Int64, chunkIndex: Int64) {
        self.versionID = versionID
        self.chunkIndex = chunkIndex
    }
}
