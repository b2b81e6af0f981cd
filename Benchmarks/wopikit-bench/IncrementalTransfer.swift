import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WOPIChunking
import WOPIModels

/// The incremental-transfer scenario (CSPP Plus, issue 24): a zip of several incompressible entries moved whole by
/// PutFile and GetFile, whole by PutChunkedFile and GetChunkedFile, then, after one small entry changed, by a
/// PutChunkedFile that sends only the changed chunks and a GetChunkedFile that names the chunks the client knows
/// (`AlreadyKnownChunks`). Every download is put together and compared with the local bytes: a wrong byte fails.
struct IncrementalTransfer {
    /// The figures of one request.
    struct Figures {
        var storage: String
        var operation: String
        var fileBytes: Int
        var requestBytes: Int
        var responseBytes: Int
        /// Chunks sent (a put) or received (a get), and of how many in the file; `nil` for PutFile and GetFile.
        var chunks: (moved: Int, total: Int)?
        var seconds: Double
        var peakRSS: Int64

        var json: String {
            let chunkFields = chunks.map { ", \"chunks\": \($0.moved), \"ofChunks\": \($0.total)" } ?? ""
            return "{\"storage\": \"\(storage)\", \"operation\": \"\(operation)\", \"fileBytes\": \(fileBytes), "
                + "\"requestBytes\": \(requestBytes), \"responseBytes\": \(responseBytes)\(chunkFields), "
                + "\"seconds\": \(String(format: "%.4f", seconds)), \"peakRSS\": \(peakRSS)}"
        }
    }

    let http: HTTPClient
    let storage: String
    let fileURL: String
    let contentsURL: String
    let memory: ProcessMemory

    /// The two versions of the document: `size` bytes in 8 entries, the first one small and changed in `new`.
    static func documents(size: Int) -> (old: [UInt8], new: [UInt8]) {
        var generator = SplitMix64(seed: 24)
        let large = max(1, (size - 4096) / 7)
        let entries = (1...7).map { index in
            ("word/media/image\(index).bin", (0..<large).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        }
        let old = BenchZip.make([("docProps/app.xml", Array(repeating: 0x61, count: 1024))] + entries)
        let new = BenchZip.make([("docProps/app.xml", Array(repeating: 0x62, count: 1024))] + entries)
        return (old, new)
    }

    /// The scenario on one host, its file locked with `X-WOPI-Lock: bench`.
    func run(size: Int) async throws -> [Figures] {
        let (old, new) = Self.documents(size: size)
        let oldChunks = Self.chunks(of: old)
        let newChunks = Self.chunks(of: new)
        var figures: [Figures] = []
        figures.append(try await put("PutFile", old, body: ByteBuffer(bytes: old), override: "PUT", chunks: nil))
        figures.append(try await getFile(expecting: old))
        _ = try await request(contentsURL, override: "PUT", body: ByteBuffer(string: "reset"), lock: true)
        figures.append(
            try await put(
                "PutChunkedFile, whole", old, body: try Self.putBody(oldChunks, sending: Set(oldChunks.map(\.id))),
                override: "PUT_CHUNKED_FILE", chunks: (Set(oldChunks.map(\.id)).count, oldChunks.count)))
        figures.append(try await getChunkedFile("GetChunkedFile, whole", expecting: old, known: []))
        let changed = Set(newChunks.map(\.id)).subtracting(oldChunks.map(\.id))
        figures.append(
            try await put(
                "PutChunkedFile, one entry changed", new, body: try Self.putBody(newChunks, sending: changed),
                override: "PUT_CHUNKED_FILE", chunks: (changed.count, newChunks.count)))
        figures.append(
            try await getChunkedFile(
                "GetChunkedFile, one entry changed", expecting: new, known: oldChunks.map(\.id.base64)))
        return figures
    }

    private func put(
        _ operation: String, _ file: [UInt8], body: ByteBuffer, override: String, chunks: (Int, Int)?
    ) async throws -> Figures {
        guard memory.resetPeak() else { throw BenchError("Cannot reset VmHWM (/proc/PID/clear_refs).") }
        let start = ContinuousClock.now
        let response = try await request(contentsURL, override: override, body: body, lock: true)
        let seconds = WOPIKitBench.seconds(ContinuousClock.now - start)
        return Figures(
            storage: storage, operation: operation, fileBytes: file.count, requestBytes: body.readableBytes,
            responseBytes: response.readableBytes, chunks: chunks, seconds: seconds,
            peakRSS: try memory.peakResidentBytes())
    }

    private func getFile(expecting file: [UInt8]) async throws -> Figures {
        guard memory.resetPeak() else { throw BenchError("Cannot reset VmHWM (/proc/PID/clear_refs).") }
        let start = ContinuousClock.now
        let response = try await request(contentsURL, override: nil, body: nil, lock: false)
        let seconds = WOPIKitBench.seconds(ContinuousClock.now - start)
        guard Array(response.readableBytesView) == file else { throw BenchError("GetFile answered other bytes") }
        return Figures(
            storage: storage, operation: "GetFile", fileBytes: file.count, requestBytes: 0,
            responseBytes: response.readableBytes, chunks: nil, seconds: seconds,
            peakRSS: try memory.peakResidentBytes())
    }

    /// GetChunkedFile of MainContent knowing `known`; the answer put together from its chunks and the known ones
    /// (the local `expecting`'s) must be `expecting`.
    private func getChunkedFile(_ operation: String, expecting file: [UInt8], known: [String]) async throws
        -> Figures
    {
        let message = GetChunkedFileRequestMessage(contentFilters: [
            .init(
                streamID: StreamSignature.mainContent, chunkingScheme: .zip, chunksToReturn: .all,
                alreadyKnownChunks: known)
        ])
        let body = try Self.frames(message, chunks: [])
        guard memory.resetPeak() else { throw BenchError("Cannot reset VmHWM (/proc/PID/clear_refs).") }
        let start = ContinuousClock.now
        let response = try await request(fileURL, override: "GET_CHUNKED_FILE", body: body, lock: false)
        let seconds = WOPIKitBench.seconds(ContinuousClock.now - start)
        let peak = try memory.peakResidentBytes()
        let (answer, received) = try Self.read(response)
        let local = Dictionary(Self.chunks(of: file).map { ($0.id.base64, $0.bytes) }) { first, _ in first }
        guard let signature = answer.signatures.first else { throw BenchError("GetChunkedFile answered no stream") }
        var assembled: [UInt8] = []
        for chunk in signature.chunkSignatures {
            let id = ChunkID(base64: chunk.chunkID)
            guard
                let bytes = id.flatMap({ received[$0] }) ?? (known.contains(chunk.chunkID) ? local[chunk.chunkID] : nil)
            else { throw BenchError("\(operation): chunk \(chunk.chunkID) neither sent nor known") }
            assembled += bytes
        }
        guard assembled == file else { throw BenchError("\(operation): the chunks put together are other bytes") }
        return Figures(
            storage: storage, operation: operation, fileBytes: file.count, requestBytes: body.readableBytes,
            responseBytes: response.readableBytes, chunks: (received.count, signature.chunkSignatures.count),
            seconds: seconds, peakRSS: peak)
    }

    /// One POST (a GET when `override` is `nil`), whose answer must be 200; returns its body.
    private func request(_ url: String, override: String?, body: ByteBuffer?, lock: Bool) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: url)
        if let override {
            request.method = .POST
            request.headers.add(name: "X-WOPI-Override", value: override)
            if override == "PUT_CHUNKED_FILE" {
                request.headers.add(name: "X-WOPI-SequenceNumber", value: try await sequenceNumber())
            }
        }
        if lock { request.headers.add(name: "X-WOPI-Lock", value: "bench") }
        if let body { request.body = .bytes(body) }
        let response = try await http.execute(request, timeout: .minutes(10))
        let answer = try await response.body.collect(upTo: 1 << 30)
        guard response.status == .ok else {
            throw BenchError(
                "\(override ?? "GetFile") answered \(response.status): "
                    + (response.headers.first(name: "X-WOPI-ServerError") ?? ""))
        }
        return answer
    }

    private func sequenceNumber() async throws -> String {
        var request = HTTPClientRequest(url: fileURL)
        request.method = .POST
        request.headers.add(name: "X-WOPI-Override", value: "GET_SEQUENCE_NUMBER")
        let response = try await http.execute(request, timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard let number = response.headers.first(name: "X-WOPI-SequenceNumber") else {
            throw BenchError("GetSequenceNumber answered \(response.status) with no number; is co-authoring on?")
        }
        return number
    }

    // MARK: - Frames and chunks

    struct Chunk {
        var id: ChunkID
        var bytes: [UInt8]
    }

    /// `content` cut as the host cuts it.
    static func chunks(of content: [UInt8]) -> [Chunk] {
        var chunker = ZipChunker()
        var chunks: [Chunk] = []
        var pending: [UInt8] = []
        for event in chunker.consume(ByteBuffer(bytes: content)) + chunker.finish() {
            switch event {
            case .bytes(let buffer): pending += buffer.readableBytesView
            case .chunkEnd(let id, _):
                chunks.append(Chunk(id: id, bytes: pending))
                pending = []
            }
        }
        return chunks
    }

    /// A PutChunkedFile body for a MainContent of `chunks`, sending those in `sending` once each.
    static func putBody(_ chunks: [Chunk], sending: Set<ChunkID>) throws -> ByteBuffer {
        let signature = StreamSignature(
            streamID: StreamSignature.mainContent, chunkingScheme: .zip,
            chunkSignatures: chunks.map { ChunkSignature(chunkID: $0.id.base64, length: UInt64($0.bytes.count)) })
        var sent = Set<ChunkID>()
        return try frames(
            PutChunkedFileRequestMessage(signatures: [signature]),
            chunks: chunks.filter { sending.contains($0.id) && sent.insert($0.id).inserted })
    }

    /// A request body: the MessageJSON, a Chunk frame per chunk, the EndFrame.
    static func frames(_ message: some Encodable, chunks: [Chunk]) throws -> ByteBuffer {
        let json = try JSONEncoder().encode(message)
        var buffer = ByteBuffer(bytes: FrameHeader.messageJSON(length: UInt64(json.count)).encoded)
        buffer.writeBytes(json)
        for chunk in chunks {
            buffer.writeBytes(FrameHeader.chunk(chunk.id, length: UInt64(chunk.bytes.count)).encoded)
            buffer.writeBytes(chunk.bytes)
        }
        buffer.writeBytes(FrameHeader.end.encoded)
        return buffer
    }

    /// A GetChunkedFile answer: its MessageJSON and the chunks it carried.
    static func read(_ body: ByteBuffer) throws -> (GetChunkedFileResponseMessage, [ChunkID: [UInt8]]) {
        var decoder = FrameDecoder()
        var json: [UInt8] = []
        var chunks: [ChunkID: [UInt8]] = [:]
        var current: FrameHeader?
        for event in try decoder.decode(body) {
            switch event {
            case .header(let header): current = header
            case .payload(let part):
                if let id = current?.chunkID {
                    chunks[id, default: []] += part.readableBytesView
                } else if current?.type == .messageJSON {
                    json += part.readableBytesView
                }
            case .frameEnd, .end: current = nil
            }
        }
        try decoder.finish()
        return (try JSONDecoder().decode(GetChunkedFileResponseMessage.self, from: Data(json)), chunks)
    }
}

/// A zip of stored entries (no compression), enough for the host's zip chunker.
enum BenchZip {
    static func make(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var zip: [UInt8] = []
        var directory: [UInt8] = []
        for (name, bytes) in entries {
            let offset = UInt32(zip.count)
            let crc = crc32(bytes)
            let fields: [UInt8] =
                le(UInt16(20)) + le(UInt16(0)) + le(UInt16(0)) + le(UInt16(0)) + le(UInt16(0)) + le(crc)
                + le(UInt32(bytes.count)) + le(UInt32(bytes.count)) + le(UInt16(name.utf8.count)) + le(UInt16(0))
            zip += le(UInt32(0x0403_4b50)) + fields + Array(name.utf8) + bytes
            directory +=
                le(UInt32(0x0201_4b50)) + le(UInt16(20)) + fields + le(UInt16(0)) + le(UInt16(0)) + le(UInt16(0))
                + le(UInt32(0)) + le(offset) + Array(name.utf8)
        }
        let start = UInt32(zip.count)
        zip += directory
        zip +=
            le(UInt32(0x0605_4b50)) + le(UInt16(0)) + le(UInt16(0)) + le(UInt16(entries.count))
            + le(UInt16(entries.count)) + le(UInt32(directory.count)) + le(start) + le(UInt16(0))
        return zip
    }

    private static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}

/// A seeded generator: the same incompressible bytes on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension WOPIKitBench {
    /// The arguments that turn co-authoring (and so chunked transfer) on in `serve`.
    static let coauthoringArguments = [
        "--coauthoring", "--real-time-channel-url", "https://rtc.example.com/rtc", "--collaboration-service-url",
        "https://collab.example.com/ocs",
    ]

    /// ``IncrementalTransfer`` on a fresh co-authoring host per storage, for the first size; prints one line per
    /// request and writes them to `--json`.
    func measureIncremental(executable: URL, http: HTTPClient) async throws {
        let size = (sizeMib.first ?? 10) << 20
        var lines: [String] = []
        for storage in storage {
            let host = try BenchHost(
                executable: executable, storage: storage, database: database,
                extraArguments: Self.coauthoringArguments)
            do {
                _ = try await host.waitUntilListening()
                let (wopiSrc, token) = try host.token(file: "Notes.txt")
                var lock = HTTPClientRequest(url: "\(wopiSrc)?access_token=\(token)")
                lock.method = .POST
                lock.headers.add(name: "X-WOPI-Override", value: "LOCK")
                lock.headers.add(name: "X-WOPI-Lock", value: "bench")
                let locked = try await http.execute(lock, timeout: .seconds(60))
                _ = try await locked.body.collect(upTo: 1 << 20)
                guard locked.status == .ok else { throw BenchError("Lock answered \(locked.status)") }
                let scenario = IncrementalTransfer(
                    http: http, storage: storage, fileURL: "\(wopiSrc)?access_token=\(token)",
                    contentsURL: "\(wopiSrc)/contents?access_token=\(token)", memory: ProcessMemory(pid: host.pid))
                for figures in try await scenario.run(size: size) {
                    print(figures.json)
                    lines.append(figures.json)
                }
                lock.headers.replaceOrAdd(name: "X-WOPI-Override", value: "UNLOCK")
                _ = try await http.execute(lock, timeout: .seconds(60)).body.collect(upTo: 1 << 20)
                await host.stop()
            } catch {
                await host.stop()
                throw error
            }
        }
        if let json {
            try (lines.joined(separator: "\n") + "\n").write(toFile: json, atomically: true, encoding: .utf8)
        }
    }
}
