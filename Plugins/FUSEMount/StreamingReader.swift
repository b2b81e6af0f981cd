import NIOCore
import WOPIStorage

/// Serves the reads of one read-only handle from a single backend stream kept open between reads.
///
/// The kernel reads a file in pieces of at most 128 KiB. Asking the backend for each piece costs a request per
/// piece, and a backend without ranged reads (WOPI has none, so ``RemoteStorage`` downloads from the start and
/// skips) makes a sequential read quadratic. The reader instead continues one stream while reads go forward,
/// keeps the last ``window`` bytes so that reads the kernel sends slightly out of order are served from memory,
/// and opens a new stream (`readFile(range:)` from the wanted offset) only for a jump backwards out of the window,
/// a jump forwards of more than ``maximumSkip``, or a new ``generation`` (the file was saved through the mount).
/// A sequential reader therefore also sees one version of the file, never pieces of two.
///
/// A read from the start of a file whose earlier content the backend holds locally (a `LocalFileTransfer`, such as
/// a remote WOPI host with a chunk cache that saw the file before) fetches the whole file into a private local copy
/// instead, moving only what changed, and serves every read of that generation from it.
///
/// Reads run one at a time, in the order they arrive; memory is bounded by the window.
actor StreamingReader {
    /// Bytes kept behind the stream's position for reads that arrive out of order.
    static let window = 4 << 20
    /// The furthest a read may jump ahead and still be reached by reading on rather than reopening.
    static let maximumSkip: Int64 = 16 << 20

    private let backend: any StorageBackend
    private let itemID: ItemID
    /// Where local copies go; `nil` for none.
    private let cacheDirectory: String?
    /// The whole file, fetched into an unlinked local file, and the generation it was fetched at.
    private var localCopy: (file: CacheFile, generation: UInt64)?
    /// The open stream; `nil` before the first read and after a failure, so that the next read reopens.
    private var iterator: ByteStream.AsyncIterator?
    /// Whether the open stream has ended (the end of the file is at `position`).
    private var ended = false
    /// The file offset of the next byte the stream yields.
    private var position: Int64 = 0
    /// The bytes just before `position`.
    private var kept = ByteBuffer()
    /// The generation the stream was opened at.
    private var openedAt: UInt64 = 0
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Streams opened so far (for tests and logs).
    private(set) var streamsOpened = 0

    /// A reader of `itemID`; with a `cacheDirectory`, whole-file reads of a `LocalFileTransfer` backend that holds
    /// the file's earlier content go through a local copy there.
    init(backend: any StorageBackend, itemID: ItemID, cacheDirectory: String? = nil) {
        self.backend = backend
        self.itemID = itemID
        self.cacheDirectory = cacheDirectory
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    ///
    /// - Parameters:
    ///   - generation: the file's current content generation; a different one than the stream's reopens it.
    ///   - progress: called for every chunk that arrives, so a deadline measures stalls, not file size.
    func read(
        at offset: Int64, count: Int, generation: UInt64 = 0, progress: @escaping @Sendable () -> Void = {}
    ) async throws -> [UInt8] {
        if busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        let streamsBefore = streamsOpened
        do {
            return try await serve(at: offset, count: count, generation: generation, progress: progress)
        } catch {
            // A stream kept open between reads can end under us (the host closed an idle connection, a version it
            // was reading was collected): open a fresh one, once, unless this read opened the one that failed.
            guard streamsOpened == streamsBefore, !Task.isCancelled else { throw error }
            try await reopen(at: offset, generation: generation, progress: progress)
            return try await serve(at: offset, count: count, generation: generation, progress: progress)
        }
    }

    private func serve(
        at offset: Int64, count: Int, generation: UInt64, progress: @escaping @Sendable () -> Void
    ) async throws -> [UInt8] {
        if let copy = localCopy, copy.generation == generation { return try copy.file.read(at: offset, count: count) }
        localCopy = nil
        let keptStart = position - Int64(kept.readableBytes)
        if iterator == nil || generation != openedAt || offset < keptStart || offset > position + Self.maximumSkip {
            try await reopen(at: offset, generation: generation, progress: progress)
            if let copy = localCopy { return try copy.file.read(at: offset, count: count) }
        }
        let wanted = offset + Int64(count)
        while position < wanted, !ended, var stream = iterator {
            let next: ByteBuffer?
            do {
                next = try await stream.next(isolation: self)
            } catch {
                iterator = nil  // never read on from a failed stream: that could look like the end of the file
                throw error
            }
            guard var chunk = next else {
                ended = true
                break
            }
            iterator = stream
            position += Int64(chunk.readableBytes)
            kept.writeBuffer(&chunk)
            progress()
            // Keep what this read still needs and the window behind the position; drop the rest.
            let drop = min(offset, position - Int64(Self.window)) - (position - Int64(kept.readableBytes))
            if drop > 0 { kept.moveReaderIndex(forwardBy: Int(drop)) }
            if kept.readerIndex > Self.window { kept.discardReadBytes() }
        }
        let start = position - Int64(kept.readableBytes)
        let lower = max(offset, start)
        let upper = min(wanted, position)
        guard lower < upper else { return [] }
        return kept.getBytes(at: kept.readerIndex + Int(lower - start), length: Int(upper - lower)) ?? []
    }

    private func reopen(at offset: Int64, generation: UInt64, progress: @escaping @Sendable () -> Void) async throws {
        iterator = nil
        ended = false
        kept.clear()
        if offset == 0, let cacheDirectory, let transfer = backend as? any LocalFileTransfer,
            await transfer.holdsEarlierContent(of: itemID)
        {
            let file = try CacheFile(directory: cacheDirectory, prefix: "read")
            defer { file.remove() }  // the descriptor keeps the unlinked copy for this handle
            guard let path = file.path else { return }
            _ = try await transfer.readFile(itemID, toLocalFile: path, progress: progress)
            try file.reopen()
            localCopy = (file, generation)
            openedAt = generation
            streamsOpened += 1
            return
        }
        let content = try await backend.readFile(itemID, range: offset..<Int64.max)
        localCopy = nil
        iterator = content.body.makeAsyncIterator()
        position = offset
        openedAt = generation
        streamsOpened += 1
    }
}
