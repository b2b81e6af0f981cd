import ChunkedVersionStore
import NIOCore
import S3ObjectStore
import Synchronization
import WOPIStorage

/// The chunk bodies one save writes to the bucket (``S3ChunkBodies``): a chunk's pieces gather into a part of
/// ``S3ChunkBodies/partSize``; a chunk that ends within its first part is one PUT, a longer one a multipart upload
/// with up to ``S3ChunkBodies/partsInFlight`` parts on the way. The engine calls it one batch at a time.
final class S3ChunkBodyWriter: ChunkBodyWriter {
    /// The body being written.
    private struct Body {
        var chunkIndex: Int
        var key: String
        /// The bytes of the part being filled.
        var part = ByteBuffer()
        /// Its multipart upload, once the body outgrew one part.
        var upload: S3MultipartUpload?
        /// The parts sent or on their way, in order.
        var parts: [Task<S3MultipartUpload.Part, any Error>] = []
    }

    let bodies: S3ChunkBodies
    let versionID: Int64
    /// The body being written; only the engine's one caller at a time touches it.
    private let open = Mutex<Body?>(nil)

    init(bodies: S3ChunkBodies, versionID: Int64) {
        self.bodies = bodies
        self.versionID = versionID
    }

    func store(_ pieces: [ChunkSQL.Piece], ending: [Int]) async throws {
        var body = open.withLock { $0.take() }
        do {
            for piece in pieces {
                if piece.pieceIndex == 0 {
                    // The previous chunk ended (its key is in this batch): its body is complete.
                    if let previous = body { try await finish(previous) }
                    body = Body(
                        chunkIndex: piece.chunkIndex,
                        key: bodies.objectKey(PieceKey(versionID: versionID, chunkIndex: Int64(piece.chunkIndex))))
                }
                guard var current = body, current.chunkIndex == piece.chunkIndex else {
                    throw StorageError(.io, "The pieces of chunk \(piece.chunkIndex) came out of order; retry.")
                }
                current.part.writeBytes(piece.data)
                if current.part.readableBytes >= bodies.partSize { try await sendPart(&current) }
                body = current
            }
            if let current = body, ending.contains(current.chunkIndex) {
                body = nil
                try await finish(current)
            }
        } catch {
            if let body { await abort(body) }
            throw S3ChunkBodies.storageError(error, "store part of an upload in \(bodies.location)")
        }
        open.withLock { $0 = body }
    }

    func abandon() async {
        guard let body = open.withLock({ $0.take() }) else { return }
        await abort(body)
    }

    func remove(_ chunkIndexes: [Int]) async throws {
        let keys = chunkIndexes.map { bodies.objectKey(PieceKey(versionID: versionID, chunkIndex: Int64($0))) }
        await bodies.remove(keys, doing: "remove duplicate chunk bodies")
    }

    /// Starts sending the part being filled, first waiting for the oldest part when enough are on their way.
    private func sendPart(_ body: inout Body) async throws {
        let upload: S3MultipartUpload
        if let started = body.upload {
            upload = started
        } else {
            upload = try await bodies.store.createMultipartUpload(body.key)
            body.upload = upload
        }
        if body.parts.count >= bodies.partsInFlight {
            _ = try await body.parts[body.parts.count - bodies.partsInFlight].value
        }
        let part = body.part
        body.part = ByteBuffer()
        let number = body.parts.count + 1
        body.parts.append(
            Task { [store = bodies.store] in try await store.uploadPart(upload, number: number, body: part) })
    }

    /// Completes `body`: one PUT when it never outgrew a part, else its last part and the multipart's completion.
    private func finish(_ body: Body) async throws {
        var body = body
        guard body.upload != nil else {
            try await bodies.store.putObject(body.key, body: body.part)
            return
        }
        if body.part.readableBytes > 0 { try await sendPart(&body) }
        do {
            var parts: [S3MultipartUpload.Part] = []
            for part in body.parts { parts.append(try await part.value) }
            try await bodies.store.completeMultipartUpload(body.upload!, parts: parts)
        } catch {
            await abort(body)
            throw error
        }
    }

    /// Drops `body`: waits for its parts on their way, then aborts its multipart upload (best effort: a bucket
    /// lifecycle rule for incomplete uploads catches the misses, Docs/object-storage.md).
    private func abort(_ body: Body) async {
        for part in body.parts { _ = await part.result }
        guard let upload = body.upload else { return }
        try? await bodies.store.abortMultipartUpload(upload)
    }
}
