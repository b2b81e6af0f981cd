import Foundation
import NIOCore
public import WOPIServer
import WOPIStorage
public import WOPIStorageConformance

/// The conformance kit for ``WOPIServer/UploadSessionStore``: sessions read back, appended bytes read back exact
/// across pieces, an append of the wrong length or from a stale length adds nothing, expiry (no append after it,
/// and ``WOPIServer/UploadSessionStore/removeExpired(now:)`` removes the session and its bytes only), removal,
/// and concurrent appends across two instances on one store, of which exactly one wins.
///
/// Tokens are random, so the cases also run against a store that holds other sessions.
public enum UploadSessionStoreConformance {
    /// Every upload session store conformance case.
    public static var cases: [ConformanceCase<any UploadSessionStore>] {
        [
            .init("appended bytes read back exact across pieces, and the length and expiry move", roundTrip),
            .init("an append of the wrong length or from a stale length adds nothing", refusedAppends),
            .init("an expired session takes no append, and removing the expired ones keeps the others", expiry),
            .init("a removed session is gone with its bytes", removal),
            .init("of 8 concurrent appends across two instances at one offset, one wins", concurrentAppends),
        ]
    }

    typealias Opener = ConformanceCase<any UploadSessionStore>.Opener

    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private static func newSession(in store: any UploadSessionStore, expiresAt: Date? = nil) async throws
        -> UploadSession
    {
        let session = UploadSession(
            token: "kit-" + UUID().uuidString, file: ItemID(rawValue: "kitfile" + UUID().uuidString.prefix(8))!,
            userID: "kituser", expiresAt: expiresAt ?? start.addingTimeInterval(1800))
        try await store.create(session)
        return session
    }

    /// `count` bytes of a pattern that differs with `seed`, so misplaced pieces show.
    private static func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) ^ seed }
    }

    /// `bytes` as a body in pieces of `split` bytes, as a connection delivers them.
    private static func body(_ bytes: [UInt8], split: Int = 64 * 1024) -> ByteStream {
        ByteStream(
            chunks: stride(from: 0, to: bytes.count, by: split).map { start in
                ByteBuffer(bytes: bytes[start..<min(start + split, bytes.count)])
            })
    }

    private static func read(_ session: UploadSession, from store: any UploadSessionStore) async throws -> [UInt8] {
        var all: [UInt8] = []
        for try await buffer in store.bytes(of: session) { all += buffer.readableBytesView }
        return all
    }

    static func roundTrip(_ open: @escaping Opener) async throws {
        let store = try await open()
        let session = try await newSession(in: store)
        try Check.expectEqual(try await store.session(session.token), session, "the session read back")
        try Check.expect(try await store.session("kit-unknown-" + UUID().uuidString) == nil, "an unknown token")
        let first = bytes(UploadSessionPieces.size + 1000, seed: 1)
        let second = bytes(2 * UploadSessionPieces.size + 17, seed: 2)
        let later = start.addingTimeInterval(600)
        try Check.expectEqual(
            try await store.append(
                body(first), length: Int64(first.count), to: session, expiresAt: later.addingTimeInterval(1800),
                now: later),
            .appended(newLength: Int64(first.count)), "the first append")
        var current = try await store.session(session.token)
        try Check.expectEqual(current?.length, Int64(first.count), "the length after the first append")
        try Check.expectEqual(current?.expiresAt, later.addingTimeInterval(1800), "the expiry after it")
        try Check.expectEqual(
            try await store.append(
                body(second, split: 1000), length: Int64(second.count), to: current!,
                expiresAt: later.addingTimeInterval(1900), now: later),
            .appended(newLength: Int64(first.count + second.count)), "the second append")
        current = try await store.session(session.token)
        try Check.expect(try await read(current!, from: store) == first + second, "the bytes read back in order")
        let empty = try await newSession(in: store)
        try Check.expectEqual(try await read(empty, from: store), [], "a new session holds nothing")
    }

    static func refusedAppends(_ open: @escaping Opener) async throws {
        let store = try await open()
        let session = try await newSession(in: store)
        let part = bytes(3000, seed: 3)
        try Check.expectEqual(
            try await store.append(body(part), length: 4000, to: session, expiresAt: start, now: start),
            .lengthMismatch(received: 3000), "a body shorter than announced")
        try Check.expectEqual(
            try await store.append(body(part, split: 500), length: 2000, to: session, expiresAt: start, now: start),
            .lengthMismatch(received: 2000 + 500), "a body longer than announced, read one split past it")
        try Check.expectEqual(try await store.session(session.token)?.length, 0, "nothing was added")
        let expiry = start.addingTimeInterval(1800)
        try Check.expectEqual(
            try await store.append(body(part), length: 3000, to: session, expiresAt: expiry, now: start),
            .appended(newLength: 3000), "then an append of the right length")
        try Check.expectEqual(
            try await store.append(body(part), length: 3000, to: session, expiresAt: expiry, now: start),
            .sessionChanged, "an append from the stale length 0")
        let current = try await store.session(session.token)!
        try Check.expectEqual(current.length, 3000, "the stale append added nothing")
        try Check.expect(try await read(current, from: store) == part, "only the counted bytes read back")
    }

    static func expiry(_ open: @escaping Opener) async throws {
        let store = try await open()
        let lapsing = try await newSession(in: store, expiresAt: start.addingTimeInterval(60))
        let living = try await newSession(in: store, expiresAt: start.addingTimeInterval(3600))
        let part = bytes(100, seed: 4)
        let later = start.addingTimeInterval(61)
        _ = try await store.append(
            body(part), length: 100, to: living, expiresAt: start.addingTimeInterval(3600), now: start)
        try Check.expectEqual(
            try await store.append(body(part), length: 100, to: lapsing, expiresAt: later, now: later),
            .sessionChanged, "an append to an expired session")
        try Check.expect(
            try await store.removeExpired(now: later) >= 1, "removing the expired sessions removes at least one")
        try Check.expect(try await store.session(lapsing.token) == nil, "the expired session is gone")
        try Check.expect(try await store.piece(of: lapsing.token, at: 0) == nil, "with its bytes")
        let kept = try await store.session(living.token)
        try Check.expectEqual(kept?.length, 100, "the living session stays")
        try Check.expect(try await read(kept!, from: store) == part, "with its bytes")
    }

    static func removal(_ open: @escaping Opener) async throws {
        let store = try await open()
        let session = try await newSession(in: store)
        let part = bytes(5000, seed: 5)
        _ = try await store.append(body(part), length: 5000, to: session, expiresAt: session.expiresAt, now: start)
        try await store.removeSession(session.token)
        try Check.expect(try await store.session(session.token) == nil, "a removed session is gone")
        try Check.expect(try await store.piece(of: session.token, at: 0) == nil, "with its bytes")
        try await store.removeSession(session.token)
    }

    static func concurrentAppends(_ open: @escaping Opener) async throws {
        let first = try await open()
        let second = try await open()
        let session = try await newSession(in: first)
        let outcomes = try await withThrowingTaskGroup(of: (Int, UploadSessionAppend).self) { group in
            for index in 0..<8 {
                let store = index.isMultiple(of: 2) ? first : second
                let part = bytes(UploadSessionPieces.size + 10, seed: UInt8(10 + index))
                group.addTask {
                    (
                        index,
                        try await store.append(
                            body(part), length: Int64(part.count), to: session, expiresAt: session.expiresAt,
                            now: start)
                    )
                }
            }
            return try await group.reduce(into: [Int: UploadSessionAppend]()) { $0[$1.0] = $1.1 }
        }
        let winners = outcomes.filter { $0.value == .appended(newLength: Int64(UploadSessionPieces.size + 10)) }
        try Check.expectEqual(winners.count, 1, "winners of 8 appends at offset 0")
        try Check.expectEqual(
            outcomes.values.filter { $0 == .sessionChanged }.count, 7, "the others find the session changed")
        let current = try await second.session(session.token)!
        try Check.expect(
            try await read(current, from: second)
                == bytes(UploadSessionPieces.size + 10, seed: UInt8(10 + winners.first!.key)),
            "the session holds the winner's bytes")
    }
}
