public import Foundation
public import NIOCore
public import WOPIStorage

/// An upload session of CSPP Plus resumable file transfer (Microsoft's "create-upload-session" page): a byte
/// stream of Chunk frames a client uploads in order, in as many UpdateUploadSessions as it likes, then commits
/// through PutChunkedFile's `UploadSessionTokenToCommit`.
public struct UploadSession: Codable, Sendable, Hashable {
    /// The session's token: random, unique, and the only name of the session.
    public var token: String
    /// The file the session was created for; it cannot be used for another.
    public var file: ItemID
    /// The ``WOPIUser/id`` of the user who created it; it cannot be used by another.
    public var userID: String
    /// How many bytes the session holds: where the next update starts.
    public var length: Int64
    /// When it lapses: 30 minutes after it was created or last updated.
    public var expiresAt: Date

    /// Creates a session record.
    public init(token: String, file: ItemID, userID: String, length: Int64 = 0, expiresAt: Date) {
        self.token = token
        self.file = file
        self.userID = userID
        self.length = length
        self.expiresAt = expiresAt
    }

    /// Whether the session has lapsed at `now`.
    public func isExpired(at now: Date) -> Bool { expiresAt <= now }
}

/// Keeps the upload sessions and their bytes: in memory (bytes in private temporary files), in SQLite or in
/// PostgreSQL, where every host on the database continues a session another host started.
///
/// The bytes are kept as **pieces** of at most ``UploadSessionPieces/size`` bytes. One update is one **attempt**:
/// its pieces are stored as they arrive (memory stays flat), under a random attempt ID, and count only once
/// ``commitAttempt(_:of:from:to:expiresAt:now:)`` has moved the session's length on. An update cut short (a
/// dropped connection) leaves pieces that never count, removed with their session. The extension's
/// ``append(_:length:to:expiresAt:now:)`` and ``bytes(of:)`` are what the host uses.
public protocol UploadSessionStore: Sendable {
    /// Stores a new session.
    func create(_ session: UploadSession) async throws

    /// The session named `token`, expired or not; `nil` when there is none.
    func session(_ token: String) async throws -> UploadSession?

    /// Stores one piece of the update `attempt` of the session `token`, starting at `offset` in its stream.
    func storePiece(_ bytes: ByteBuffer, of token: String, attempt: String, at offset: Int64) async throws

    /// Makes the pieces of `attempt` part of the session, atomically: when the session holds `length` bytes and
    /// has not expired at `now`, its length becomes `newLength` and its expiry `expiresAt`, and the pieces of
    /// every other attempt not yet counted may be dropped. Returns whether it did.
    func commitAttempt(
        _ attempt: String, of token: String, from length: Int64, to newLength: Int64, expiresAt: Date, now: Date
    ) async throws -> Bool

    /// The counted piece of the session `token` that starts at `offset`; `nil` when there is none.
    func piece(of token: String, at offset: Int64) async throws -> ByteBuffer?

    /// Removes a session and its pieces (committed, or given up by its client).
    func removeSession(_ token: String) async throws

    /// Removes every session expired at `now`, with its pieces, and pieces whose session is gone; returns how many
    /// sessions it removed.
    @discardableResult
    func removeExpired(now: Date) async throws -> Int
}

/// The piece size of an ``UploadSessionStore``.
public enum UploadSessionPieces {
    /// The largest piece stored: 1 MiB.
    public static let size = 1024 * 1024
}

/// How an ``UploadSessionStore/append(_:length:to:expiresAt:now:)`` ended.
public enum UploadSessionAppend: Sendable, Hashable {
    /// The bytes were added: the session now holds `newLength` bytes.
    case appended(newLength: Int64)
    /// The body was not `length` bytes long (`received` bytes, counted up to one past the announced length):
    /// nothing was added.
    case lengthMismatch(received: Int64)
    /// The session changed or lapsed meanwhile (another update won, or it expired): nothing was added.
    case sessionChanged
}

extension UploadSessionStore {
    /// Appends `body`, announced as `length` bytes, to `session` at its current end: the whole body or nothing.
    /// Pieces are stored as they arrive, so memory holds one piece at most.
    public func append(_ body: ByteStream, length: Int64, to session: UploadSession, expiresAt: Date, now: Date)
        async throws -> UploadSessionAppend
    {
        let attempt = UUID().uuidString
        var received: Int64 = 0
        var stored = session.length
        var piece = ByteBufferAllocator().buffer(capacity: min(Int(clamping: length), UploadSessionPieces.size))
        for try await var buffer in body {
            received += Int64(buffer.readableBytes)
            guard received <= length else { return .lengthMismatch(received: received) }
            while buffer.readableBytes > 0 {
                let take = min(buffer.readableBytes, UploadSessionPieces.size - piece.readableBytes)
                var part = buffer.readSlice(length: take)!
                piece.writeBuffer(&part)
                if piece.readableBytes == UploadSessionPieces.size {
                    try await storePiece(piece, of: session.token, attempt: attempt, at: stored)
                    stored += Int64(piece.readableBytes)
                    piece.clear()
                }
            }
        }
        guard received == length else { return .lengthMismatch(received: received) }
        if piece.readableBytes > 0 {
            try await storePiece(piece, of: session.token, attempt: attempt, at: stored)
        }
        let newLength = session.length + length
        let committed = try await commitAttempt(
            attempt, of: session.token, from: session.length, to: newLength, expiresAt: expiresAt, now: now)
        return committed ? .appended(newLength: newLength) : .sessionChanged
    }

    /// The bytes `session` holds, read piece by piece as the stream is consumed.
    public func bytes(of session: UploadSession) -> ByteStream {
        ByteStream(knownLength: session.length) {
            var offset: Int64 = 0
            return {
                guard offset < session.length else { return nil }
                guard let piece = try await self.piece(of: session.token, at: offset), piece.readableBytes > 0,
                    offset + Int64(piece.readableBytes) <= session.length
                else {
                    throw StorageError(
                        .corrupt, "The upload session has no piece at byte \(offset); upload it in a new session.")
                }
                offset += Int64(piece.readableBytes)
                return piece
            }
        }
    }
}

/// An ``UploadSessionStore`` for one process: the sessions in memory, their bytes in one private temporary file
/// (created and unlinked at once, so nothing is left behind if the process dies), so memory stays flat in the
/// size of what is uploaded. The file's space is given back whenever no session is left. The default of ``CoauthoringConfiguration``; give several hosts a shared store.
public actor InMemoryUploadSessionStore: UploadSessionStore {
    private struct PieceKey: Hashable {
        let token: String
        let attempt: String
        let offset: Int64
    }

    private var sessions: [String: UploadSession] = [:]
    /// Where each stored piece is in the spool.
    private var pieces: [PieceKey: Range<Int64>] = [:]
    /// The attempt whose pieces count, by session and piece offset.
    private var counted: [String: [Int64: String]] = [:]
    private var spool: SpoolFile?
    private var spoolEnd: Int64 = 0
    private let directory: URL

    /// An empty store whose bytes go to private files in `directory` (the system's temporary directory).
    public init(directory: URL = FileManager.default.temporaryDirectory) {
        self.directory = directory
    }

    public func create(_ session: UploadSession) {
        sessions[session.token] = session
    }

    public func session(_ token: String) -> UploadSession? { sessions[token] }

    public func storePiece(_ bytes: ByteBuffer, of token: String, attempt: String, at offset: Int64) async throws {
        guard sessions[token] != nil else { return }
        let file = try spoolFile()
        let start = spoolEnd
        spoolEnd += Int64(bytes.readableBytes)  // reserved before the write suspends, so pieces never overlap
        try await file.write(bytes, at: start)
        guard sessions[token] != nil else { return }  // removed while the piece was written
        pieces[PieceKey(token: token, attempt: attempt, offset: offset)] = start..<(start + Int64(bytes.readableBytes))
    }

    public func commitAttempt(
        _ attempt: String, of token: String, from length: Int64, to newLength: Int64, expiresAt: Date, now: Date
    ) -> Bool {
        guard var session = sessions[token], session.length == length, !session.isExpired(at: now) else { return false }
        for key in pieces.keys where key.token == token && key.attempt == attempt {
            counted[token, default: [:]][key.offset] = attempt
        }
        session.length = newLength
        session.expiresAt = expiresAt
        sessions[token] = session
        return true
    }

    public func piece(of token: String, at offset: Int64) async throws -> ByteBuffer? {
        guard let attempt = counted[token]?[offset],
            let range = pieces[PieceKey(token: token, attempt: attempt, offset: offset)], let spool
        else { return nil }
        return try await spool.read(at: range.lowerBound, count: range.count)
    }

    public func removeSession(_ token: String) {
        sessions[token] = nil
        counted[token] = nil
        pieces = pieces.filter { $0.key.token != token }
        if sessions.isEmpty {  // nothing to keep: the spool's space goes back to the system
            spool = nil
            spoolEnd = 0
            pieces = [:]
        }
    }

    @discardableResult
    public func removeExpired(now: Date) -> Int {
        let expired = sessions.values.filter { $0.isExpired(at: now) }.map(\.token)
        for token in expired { removeSession(token) }
        return expired.count
    }

    private func spoolFile() throws -> SpoolFile {
        if let spool { return spool }
        let file = try SpoolFile(in: directory)
        spool = file
        return file
    }
}
