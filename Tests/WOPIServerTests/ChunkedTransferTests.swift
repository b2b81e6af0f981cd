import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing
import WOPIChunking
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// CSPP Plus incremental file transfer on an in-process host (GetChunkedFile, PutChunkedFile, GetChunks,
/// GetSequenceNumber), on InMemoryStorage: the host works each chunk list out by reading the content once.
struct ChunkedTransferTests {
    typealias Frames = ChunkedTransferFrames
    typealias Filter = GetChunkedFileRequestMessage.ContentFilter

    /// A session on one file: its URLs and the calls a WOPI client makes.
    struct Session {
        let wopi: TestHost
        let file: ItemID

        func getChunkedFile(_ filters: [Filter], properties: [String] = []) async throws -> TestHTTP.Reply {
            let message = GetChunkedFileRequestMessage(contentPropertiesToReturn: properties, contentFilters: filters)
            return try await wopi.send(
                .POST, wopi.fileURL(file), headers: ["X-WOPI-Override": "GET_CHUNKED_FILE"],
                bodyBuffer: try Frames.body(message))
        }

        func putChunkedFile(
            _ streams: [String: [UInt8]], known: [String: [UInt8]] = [:], sequence: String,
            headers: [String: String] = [:], properties: [ContentProperty] = [], extraChunks: [Frames.Chunk] = []
        ) async throws -> TestHTTP.Reply {
            var signatures: [StreamSignature] = []
            var sent: [Frames.Chunk] = []
            // MainContent first, as Office and the validator send it, then the alternates by name.
            let order = streams.sorted { $0.key == "MainContent" || ($1.key != "MainContent" && $0.key < $1.key) }
            for (streamID, content) in order {
                let (chunks, isZip) = Frames.chunks(of: content)
                let knownIDs = Set(Frames.chunks(of: known[streamID] ?? []).chunks.map(\.id))
                signatures.append(
                    StreamSignature(
                        streamID: streamID, chunkingScheme: isZip ? .zip : .fullFile,
                        chunkSignatures: chunks.map {
                            ChunkSignature(chunkID: $0.id.base64, length: UInt64($0.bytes.count))
                        }))
                for chunk in chunks where !knownIDs.contains(chunk.id) && !sent.contains(chunk) { sent.append(chunk) }
            }
            let message = PutChunkedFileRequestMessage(contentProperties: properties, signatures: signatures)
            return try await wopi.send(
                .POST, wopi.fileURL(file, "/contents"),
                headers: headers.merging(["X-WOPI-Override": "PUT_CHUNKED_FILE", "X-WOPI-SequenceNumber": sequence]) {
                    $1
                },
                bodyBuffer: try Frames.body(message, chunks: sent + extraChunks))
        }

        func coauthLock(_ id: String) async throws {
            let reply = try await wopi.post(
                wopi.fileURL(file),
                [
                    "X-WOPI-Override": "GET_COAUTH_LOCK", "X-WOPI-CoauthLockId": id, "X-WOPI-CoauthLockType": "Coauth",
                    "X-WOPI-CoauthLockExpirationTimeout": "600",
                ])
            #expect(reply.status == 200)
        }

        func sequenceNumber() async throws -> String {
            let reply = try await wopi.post(wopi.fileURL(file), ["X-WOPI-Override": "GET_SEQUENCE_NUMBER"])
            #expect(reply.status == 200)
            return try #require(reply.header("X-WOPI-SequenceNumber"))
        }

        func content() async throws -> [UInt8] {
            Array(try await wopi.get(wopi.fileURL(file, "/contents")).body.readableBytesView)
        }
    }

    static func run(_ body: @Sendable (Session) async throws -> Void) async throws {
        try await TestHost.run(configuration: WOPILockExtensionTests.coauthoring) { wopi in
            let file = try await wopi.seedFile("Book.xlsx", "")
            try await body(Session(wopi: wopi, file: file.id))
        }
    }

    static let zipV1 = TestZip.make([
        ("[Content_Types].xml", Array("<Types/>".utf8)), ("xl/workbook.xml", Array("<workbook>one</workbook>".utf8)),
        ("xl/sheet1.xml", Array(repeating: 0x41, count: 5000)),
    ])
    static let zipV2 = TestZip.make([
        ("[Content_Types].xml", Array("<Types/>".utf8)), ("xl/workbook.xml", Array("<workbook>two</workbook>".utf8)),
        ("xl/sheet1.xml", Array(repeating: 0x41, count: 5000)),
    ])

    /// The test zips carry real CRC-32s, so any zip reader takes them: the CRC catalogue's check value, and zlib's
    /// `crc32` of a pangram.
    @Test func testZipsCarryTheStandardCRC32() {
        #expect(TestZip.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(TestZip.crc32([]) == 0)
        #expect(TestZip.crc32(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test func withoutCoauthoringEveryChunkedOperationIsNotImplemented() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("Plan.docx")
            for (override, suffix) in [
                ("GET_CHUNKED_FILE", ""), ("GET_CHUNKS", ""), ("GET_SEQUENCE_NUMBER", ""),
                ("PUT_CHUNKED_FILE", "/contents"),
            ] {
                let reply = try await wopi.post(wopi.fileURL(file.id, suffix), ["X-WOPI-Override": override])
                #expect(reply.status == 501, "\(override)")
                #expect(reply.header("X-WOPI-SequenceNumber") == nil)
            }
            let info = try await wopi.get(wopi.fileURL(file.id))
            #expect(!String(buffer: info.body).contains("SupportsChunkedFileTransfer"))
        }
    }

    @Test("incremental transfer without co-authoring is advertised to the CheckFileInfo that asks for it alone")
    func offeredToWOPIKitsClientWithoutCoauthoring() async throws {
        let ask = ["X-WOPIKit-IncrementalTransfer": "1"]
        for offer in IncrementalTransferConfiguration.Offer.allCases {
            var configuration = WOPIHostConfiguration()
            configuration.incrementalTransfer.offer = offer
            try await TestHost.run(configuration: configuration) { wopi in
                let file = try await wopi.seedFile("Plan.docx")
                // InMemoryStorage keeps no chunks: `automatic` offers nothing on it.
                let offered = offer == .always
                let asked = await wopi.send(.get, file.id, "", ask).json
                #expect((asked["SupportsChunkedFileTransfer"] as? Bool) == (offered ? true : nil), "\(offer)")
                #expect(asked["SupportsCoauth"] == nil && asked["SupportsResumableFileTransfer"] == nil)
                let plain = await wopi.send(.get, file.id).json
                #expect(plain["SupportsChunkedFileTransfer"] == nil, "\(offer): a client that does not ask")
                let sequence = await wopi.send(.post, file.id, "", ["X-WOPI-Override": "GET_SEQUENCE_NUMBER"])
                #expect(sequence.status.code == (offered ? 200 : 501), "\(offer)")
            }
        }
        // With co-authoring, every client is told already; the header changes nothing.
        try await TestHost.run(configuration: WOPILockExtensionTests.coauthoring) { wopi in
            let file = try await wopi.seedFile("Plan.docx")
            let plain = await wopi.send(.get, file.id).json
            #expect(plain["SupportsChunkedFileTransfer"] as? Bool == true)
            let asked = await wopi.send(.get, file.id, "", ask).json
            #expect(Set(asked.keys) == Set(plain.keys))
        }
    }

    @Test("with incremental transfer always offered, a delta upload sends only the changed chunks")
    func aDeltaUploadWithoutCoauthoring() async throws {
        var configuration = WOPIHostConfiguration()
        configuration.incrementalTransfer.offer = .always
        try await TestHost.run(configuration: configuration) { wopi in
            let file = try await wopi.seedFile("Book.xlsx", "")
            let session = Session(wopi: wopi, file: file.id)
            let lock = ["X-WOPI-Lock": "L1"]
            #expect(
                try await wopi.post(wopi.fileURL(file.id), ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L1"]).status
                    == 200)
            let first = try await session.putChunkedFile(
                ["MainContent": Self.zipV1], sequence: try await session.sequenceNumber(), headers: lock)
            #expect(first.status == 200, "\(first.text)")
            let second = try await session.putChunkedFile(
                ["MainContent": Self.zipV2], known: ["MainContent": Self.zipV1],
                sequence: try #require(first.header("X-WOPI-SequenceNumber")), headers: lock)
            #expect(second.status == 200, "\(second.text)")
            #expect(try await session.content() == Self.zipV2)
        }
    }

    @Test func deletingAFileForgetsItsContentStreams() async throws {
        let streams = InMemoryContentStreamStore()
        var configuration = WOPILockExtensionTests.coauthoring
        configuration.coauthoring?.contentStreams = streams
        try await TestHost.run(configuration: configuration) { wopi in
            let file = try await wopi.seedFile("Gone.docx", "")
            let kept = try await wopi.seedFile("Kept.docx", "")
            for id in [file.id, kept.id] {
                #expect(try await wopi.post(wopi.fileURL(id), ["X-WOPI-Override": "GET_SEQUENCE_NUMBER"]).status == 200)
            }
            #expect(await streams.record(of: file.id) != nil)
            #expect(try await wopi.post(wopi.fileURL(file.id), ["X-WOPI-Override": "DELETE"]).status == 200)
            #expect(await streams.record(of: file.id) == nil, "the deleted file's record is gone")
            #expect(await streams.record(of: kept.id) != nil, "another file's stays")
        }
    }

    @Test func aPlainFileIsOneFullFileChunkAndKnownChunksAreNotSent() async throws {
        try await TestHost.run(configuration: WOPILockExtensionTests.coauthoring) { wopi in
            let file = try await wopi.seedFile("notes.txt", "plain text, not a zip")
            let session = Session(wopi: wopi, file: file.id)
            let reply = try await session.getChunkedFile([
                Filter(streamID: "MainContent", chunkingScheme: .zip, chunksToReturn: .all)
            ])
            #expect(reply.status == 200)
            #expect(reply.header("X-WOPI-ItemVersion") == file.version)
            #expect(Int(reply.header("X-WOPI-SequenceNumber") ?? "") ?? 0 >= 1)
            let response = try Frames.read(reply.body)
            let message = try response.decoded(GetChunkedFileResponseMessage.self)
            let signature = try #require(message.signatures.first)
            #expect(signature.chunkingScheme == .fullFile)  // the content's scheme, not the one asked for
            #expect(signature.chunkSignatures.count == 1)
            #expect(
                Frames.content(of: signature, known: [], sent: response.chunks) == Array("plain text, not a zip".utf8))
            let known = try await session.getChunkedFile([
                Filter(
                    streamID: "MainContent", chunkingScheme: .fullFile, chunksToReturn: .all,
                    alreadyKnownChunks: signature.chunkSignatures.map(\.chunkID))
            ])
            #expect(try Frames.read(known.body).frames.isEmpty)
            let none = try await session.getChunkedFile([
                Filter(streamID: "MainContent", chunkingScheme: .fullFile, chunksToReturn: .none)
            ])
            #expect(try Frames.read(none.body).frames.isEmpty)
            let last = try await session.getChunkedFile([
                Filter(streamID: "MainContent", chunkingScheme: .zip, chunksToReturn: .lastZipChunk)
            ])
            #expect(try Frames.read(last.body).frames.isEmpty)  // not a zip: as None
        }
    }

    @Test func putChunkedFileWritesMainContentAndAlternatesAndTheSequenceGrows() async throws {
        try await Self.run { session in
            let first = try await session.sequenceNumber()
            try await session.coauthLock("C1")
            let put = try await session.putChunkedFile(
                ["MainContent": Self.zipV1, "Alternate": Array("alt-1".utf8)], sequence: first,
                headers: ["X-WOPI-CoauthLockId": "C1"])
            #expect(put.status == 200)
            let second = try #require(put.header("X-WOPI-SequenceNumber"))
            #expect(Int(second)! > Int(first)!)
            #expect(try await session.content() == Self.zipV1)
            #expect(try await session.sequenceNumber() == second)
            let reply = try await session.getChunkedFile([
                Filter(streamID: "MainContent", chunkingScheme: .fullFile, chunksToReturn: .all),
                Filter(streamID: "Alternate", chunkingScheme: .zip, chunksToReturn: .all),
            ])
            let response = try Frames.read(reply.body)
            let message = try response.decoded(GetChunkedFileResponseMessage.self)
            #expect(message.signatures.map(\.chunkingScheme) == [.zip, .fullFile])
            #expect(message.signatures[0].chunkSignatures.count == 7)  // 3 × (header, data) + central directory
            #expect(Frames.content(of: message.signatures[0], known: [], sent: response.chunks) == Self.zipV1)
            #expect(Frames.content(of: message.signatures[1], known: [], sent: response.chunks) == Array("alt-1".utf8))
            // A stale sequence number: 412 with the current one.
            let stale = try await session.putChunkedFile(
                ["MainContent": Self.zipV2], sequence: first, headers: ["X-WOPI-CoauthLockId": "C1"])
            #expect(stale.status == 412)
            #expect(stale.header("X-WOPI-SequenceNumber") == second)
            #expect(try await session.content() == Self.zipV1)
        }
    }

    @Test func aDeltaUploadSendsOnlyTheChangedChunksAndADeltaDownloadReturnsOnlyThem() async throws {
        try await Self.run { session in
            try await session.coauthLock("C1")
            let v1 = try await session.putChunkedFile(
                ["MainContent": Self.zipV1], sequence: try await session.sequenceNumber(),
                headers: ["X-WOPI-CoauthLockId": "C1"])
            #expect(v1.status == 200)
            // Only the changed entry's data is sent: the rest comes from the host's own chunks.
            let (v1Chunks, _) = Frames.chunks(of: Self.zipV1)
            let (v2Chunks, _) = Frames.chunks(of: Self.zipV2)
            let changed = v2Chunks.filter { chunk in !v1Chunks.contains(chunk) }
            #expect(changed.count == 3)  // the entry's local header (its CRC), its data, the central directory
            let v2 = try await session.putChunkedFile(
                ["MainContent": Self.zipV2], known: ["MainContent": Self.zipV1],
                sequence: try #require(v1.header("X-WOPI-SequenceNumber")), headers: ["X-WOPI-CoauthLockId": "C1"])
            #expect(v2.status == 200)
            #expect(try await session.content() == Self.zipV2)
            let delta = try await session.getChunkedFile([
                Filter(
                    streamID: "MainContent", chunkingScheme: .zip, chunksToReturn: .all,
                    alreadyKnownChunks: v1Chunks.map(\.id.base64))
            ])
            let response = try Frames.read(delta.body)
            #expect(Set(response.chunks.keys) == Set(changed.map(\.id)))
            let signature = try #require(try response.decoded(GetChunkedFileResponseMessage.self).signatures.first)
            #expect(Frames.content(of: signature, known: v1Chunks, sent: response.chunks) == Self.zipV2)
            let last = try await session.getChunkedFile([
                Filter(streamID: "MainContent", chunkingScheme: .zip, chunksToReturn: .lastZipChunk)
            ])
            #expect(try Frames.read(last.body).chunks.keys.map { $0 } == [v2Chunks.last!.id])
        }
    }

    /// An alternate stream that shares entries with the workbook, as Office's and the validator's documents do.
    static let alternateV1 = TestZip.make([
        ("[Content_Types].xml", Array("<Types/>".utf8)), ("alt/state.xml", Array("<state>one</state>".utf8)),
    ])
    static let alternateV2 = TestZip.make([
        ("[Content_Types].xml", Array("<Types/>".utf8)), ("alt/state.xml", Array("<state>two</state>".utf8)),
    ])

    @Test("the second delta upload, MainContent first and an Alternate naming MainContent's chunks, is written whole")
    func aSecondDeltaUploadWhoseAlternateNamesMainContentsChunks() async throws {
        try await Self.run { session in
            try await session.coauthLock("C1")
            let lock = ["X-WOPI-CoauthLockId": "C1"]
            let v1 = try await session.putChunkedFile(
                ["MainContent": Self.zipV1, "Alternate": Self.alternateV1],
                sequence: try await session.sequenceNumber(),
                headers: lock)
            #expect(v1.status == 200)
            let shared = Set(Frames.chunks(of: Self.zipV1).chunks.map(\.id))
                .intersection(Frames.chunks(of: Self.alternateV2).chunks.map(\.id))
            #expect(!shared.isEmpty, "the alternate names chunks the host has in MainContent")
            let sequence = try #require(v1.header("X-WOPI-SequenceNumber"))
            let v2 = try await session.putChunkedFile(
                ["MainContent": Self.zipV2, "Alternate": Self.alternateV2],
                known: ["MainContent": Self.zipV1, "Alternate": Self.alternateV1], sequence: sequence, headers: lock)
            #expect(v2.status == 200, "\(v2.header("X-WOPI-ServerError") ?? "")")
            #expect(v2.header("X-WOPI-SequenceNumber") == String((Int(sequence) ?? 0) + 1))
            #expect(try await session.content() == Self.zipV2)
            let alternate = try await session.getChunkedFile([
                Filter(streamID: "Alternate", chunkingScheme: .zip, chunksToReturn: .all, alreadyKnownChunks: [])
            ])
            let response = try Frames.read(alternate.body)
            let signature = try #require(try response.decoded(GetChunkedFileResponseMessage.self).signatures.first)
            #expect(Frames.content(of: signature, known: [], sent: response.chunks) == Self.alternateV2)
        }
    }

    @Test func refusalsLeaveTheContentWhole() async throws {
        try await Self.run { session in
            try await session.coauthLock("C1")
            let sequence = try await session.sequenceNumber()
            let locked = ["X-WOPI-CoauthLockId": "C1"]
            // A chunk neither sent nor on the host.
            let unknown = PutChunkedFileRequestMessage(signatures: [
                StreamSignature(
                    streamID: "MainContent", chunkingScheme: .fullFile,
                    chunkSignatures: [ChunkSignature(chunkID: SpookyHash.hash(Array("x".utf8)).base64, length: 1)])
            ])
            let missing = try await session.wopi.send(
                .POST, session.wopi.fileURL(session.file, "/contents"),
                headers: [
                    "X-WOPI-Override": "PUT_CHUNKED_FILE", "X-WOPI-SequenceNumber": sequence,
                    "X-WOPI-CoauthLockId": "C1",
                ],
                bodyBuffer: try Frames.body(unknown))
            #expect(missing.status == 400)
            // A chunk whose bytes are not its ID.
            let forged = Frames.Chunk(id: SpookyHash.hash(Array("x".utf8)), bytes: Array("y".utf8))
            let bad = try await session.wopi.send(
                .POST, session.wopi.fileURL(session.file, "/contents"),
                headers: [
                    "X-WOPI-Override": "PUT_CHUNKED_FILE", "X-WOPI-SequenceNumber": sequence,
                    "X-WOPI-CoauthLockId": "C1",
                ],
                bodyBuffer: try Frames.body(unknown, chunks: [forged]))
            #expect(bad.status == 400)
            // No sequence number; a WOPI lock and a coauth lock together; a coauth lock nobody holds.
            let noSequence = try await session.wopi.send(
                .POST, session.wopi.fileURL(session.file, "/contents"),
                headers: ["X-WOPI-Override": "PUT_CHUNKED_FILE", "X-WOPI-CoauthLockId": "C1"],
                bodyBuffer: try Frames.body(unknown))
            #expect(noSequence.status == 400)
            let both = try await session.putChunkedFile(
                ["MainContent": Self.zipV1], sequence: sequence,
                headers: ["X-WOPI-CoauthLockId": "C1", "X-WOPI-Lock": "L"])
            #expect(both.status == 400)
            let other = try await session.putChunkedFile(
                ["MainContent": Self.zipV1], sequence: sequence, headers: ["X-WOPI-CoauthLockId": "C2"])
            #expect(other.status == 409)
            #expect(other.header("X-WOPI-ConflictingMechanism") == "WOPI-CoauthLock")
            // Not a frame stream at all.
            let garbage = try await session.wopi.post(
                session.wopi.fileURL(session.file, "/contents"),
                ["X-WOPI-Override": "PUT_CHUNKED_FILE", "X-WOPI-SequenceNumber": sequence].merging(locked) { $1 },
                body: "not frames")
            #expect(garbage.status == 400)
            #expect(try await session.content() == [])
            #expect(try await session.sequenceNumber() == sequence)
        }
    }

    @Test func aWriteByAnotherPathDropsAlternatesAndDeleteOnChangeProperties() async throws {
        try await Self.run { session in
            try await session.coauthLock("C1")
            let put = try await session.putChunkedFile(
                ["MainContent": Self.zipV1, "Alternate": Array("alt".utf8)],
                sequence: try await session.sequenceNumber(),
                headers: ["X-WOPI-CoauthLockId": "C1"],
                properties: [
                    ContentProperty(name: "keep", value: "1", retention: .keepOnContentChange),
                    ContentProperty(name: "drop", value: "2", retention: .deleteOnContentChange),
                ])
            #expect(put.status == 200)
            let filters = [
                Filter(streamID: "MainContent", chunkingScheme: .zip, chunksToReturn: .none),
                Filter(streamID: "Alternate", chunkingScheme: .zip, chunksToReturn: .all),
            ]
            let before = try Frames.read(try await session.getChunkedFile(filters, properties: ["keep", "drop"]).body)
            #expect(
                try before.decoded(GetChunkedFileResponseMessage.self).contentProperties.map(\.name) == [
                    "keep", "drop",
                ])
            // The storage is written directly, as a PutFile, a PutRelativeFile or the mount would.
            _ = try await session.wopi.host.storage.writeFile(
                session.file, content: ByteStream(buffer: ByteBuffer(bytes: Self.zipV2)), expectedVersion: nil)
            let sequence = try await session.sequenceNumber()
            #expect(Int(sequence)! > Int(try #require(put.header("X-WOPI-SequenceNumber")))!)
            let after = try Frames.read(try await session.getChunkedFile(filters, properties: ["keep", "drop"]).body)
            let message = try after.decoded(GetChunkedFileResponseMessage.self)
            #expect(
                message.contentProperties == [
                    ContentProperty(name: "keep", value: "1", retention: .keepOnContentChange)
                ])
            #expect(
                message.signatures[1]
                    == StreamSignature(streamID: "Alternate", chunkingScheme: .zip, chunkSignatures: []))
            #expect(after.frames.isEmpty)
        }
    }

    @Test func getChunksReturnsChunkRanges() async throws {
        try await Self.run { session in
            try await session.coauthLock("C1")
            let put = try await session.putChunkedFile(
                ["MainContent": Self.zipV1], sequence: try await session.sequenceNumber(),
                headers: ["X-WOPI-CoauthLockId": "C1"])
            #expect(put.status == 200)
            let (chunks, _) = Frames.chunks(of: Self.zipV1)
            let data = chunks[5]  // the big entry's data
            let message = GetChunksRequestMessage(contentFilters: [
                .init(
                    streamID: "MainContent", chunkingScheme: .zip,
                    chunkRangesToReturn: [
                        .init(chunkID: data.id.base64, offset: 10, length: 100),
                        .init(chunkID: data.id.base64, offset: 4000, length: -1),
                        .init(chunkID: SpookyHash.hash(Array("gone".utf8)).base64),
                    ])
            ])
            let reply = try await session.wopi.send(
                .POST, session.wopi.fileURL(session.file), headers: ["X-WOPI-Override": "GET_CHUNKS"],
                bodyBuffer: try Frames.body(message))
            #expect(reply.status == 200)
            #expect(reply.header("X-WOPI-SequenceNumber") == put.header("X-WOPI-SequenceNumber"))
            let response = try Frames.read(reply.body)
            let returned = try response.decoded(GetChunksResponseMessage.self)
            #expect(returned.contentFilters.first?.chunkRangesToReturn.map(\.length) == [100, 1000])
            #expect(response.frames.map(\.header.type) == [.chunkRange, .chunkRange])
            #expect(response.frames.map(\.payload) == [Array(data.bytes[10..<110]), Array(data.bytes[4000...])])
            #expect(response.frames.first.map { Array($0.header.extendedHeader.prefix(16)) } == data.id.bytes)
        }
    }
}
