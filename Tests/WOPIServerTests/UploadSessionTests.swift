import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIChunking
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// CSPP Plus resumable file transfer on an in-process host: CreateUploadSession, UpdateUploadSession and the
/// commit through PutChunkedFile's `UploadSessionTokenToCommit`, with the session's expiry on the host's clock.
struct UploadSessionTests {
    typealias Frames = ChunkedTransferFrames

    /// A client of one file's upload sessions.
    struct Uploader {
        let wopi: TestHost
        let file: ItemID

        func create() async throws -> String {
            let reply = try await wopi.post(wopi.fileURL(file), ["X-WOPI-Override": "CREATE_UPLOAD_SESSION"])
            #expect(reply.status == 200)
            return try #require(try reply.json()["UploadSessionToken"] as? String)
        }

        func update(
            _ token: String, offset: Int, _ bytes: ArraySlice<UInt8>, announced: Int? = nil, on other: ItemID? = nil
        ) async throws -> TestHTTP.Reply {
            try await wopi.send(
                .POST, wopi.fileURL(other ?? file),
                headers: [
                    "X-WOPI-Override": "UPDATE_UPLOAD_SESSION", "X-WOPI-UploadSessionToken": token,
                    "X-WOPI-ContentRangeOffset": String(offset),
                    "X-WOPI-ContentRangeLength": String(announced ?? bytes.count),
                ],
                bodyBuffer: ByteBuffer(bytes: bytes))
        }

        /// PutChunkedFile of `content` as MainContent, its chunks only in the session `token`.
        func commit(_ token: String, content: [UInt8], sequence: String? = nil, lock: String? = nil) async throws
            -> TestHTTP.Reply
        {
            let (chunks, isZip) = Frames.chunks(of: content)
            let message = PutChunkedFileRequestMessage(
                signatures: [
                    StreamSignature(
                        streamID: "MainContent", chunkingScheme: isZip ? .zip : .fullFile,
                        chunkSignatures: chunks.map {
                            ChunkSignature(chunkID: $0.id.base64, length: UInt64($0.bytes.count))
                        })
                ], uploadSessionTokenToCommit: token)
            let number: String
            if let sequence { number = sequence } else { number = try await sequenceNumber() }
            return try await wopi.send(
                .POST, wopi.fileURL(file, "/contents"),
                headers: ["X-WOPI-Override": "PUT_CHUNKED_FILE", "X-WOPI-SequenceNumber": number].merging(
                    lock.map { ["X-WOPI-Lock": $0] } ?? [:]
                ) { $1 },
                bodyBuffer: try Frames.body(message))
        }

        func sequenceNumber() async throws -> String {
            let reply = try await wopi.post(wopi.fileURL(file), ["X-WOPI-Override": "GET_SEQUENCE_NUMBER"])
            return try #require(reply.header("X-WOPI-SequenceNumber"))
        }

        func content() async throws -> [UInt8] {
            Array(try await wopi.get(wopi.fileURL(file, "/contents")).body.readableBytesView)
        }
    }

    /// An upload session's byte stream for `content`: a Chunk frame per chunk, no MessageJSON, no EndFrame.
    static func sessionStream(of content: [UInt8]) -> [UInt8] {
        Frames.sessionStream(Frames.chunks(of: content).chunks)
    }

    static let document = TestZip.make([
        ("[Content_Types].xml", Array("<Types/>".utf8)), ("word/document.xml", Array("<w:document/>".utf8)),
        ("word/media/image1.bin", (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }),
    ])

    static func run(
        store: any UploadSessionStore = InMemoryUploadSessionStore(), _ body: @Sendable (Uploader) async throws -> Void
    ) async throws {
        var configuration = WOPILockExtensionTests.coauthoring
        configuration.coauthoring?.uploadSessions = store
        try await TestHost.run(configuration: configuration) { wopi in
            let file = try await wopi.seedFile("Report.docx", "")
            try await body(Uploader(wopi: wopi, file: file.id))
        }
    }

    @Test func withoutCoauthoringUploadSessionsAreNotImplementedNorAdvertised() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("Plan.docx")
            for override in ["CREATE_UPLOAD_SESSION", "UPDATE_UPLOAD_SESSION"] {
                #expect(try await wopi.post(wopi.fileURL(file.id), ["X-WOPI-Override": override]).status == 501)
            }
            #expect(!String(buffer: try await wopi.get(wopi.fileURL(file.id)).body).contains("Resumable"))
        }
        try await Self.run { uploader in
            let info = try await uploader.wopi.get(uploader.wopi.fileURL(uploader.file)).json()
            #expect(info["SupportsResumableFileTransfer"] as? Bool == true)
        }
    }

    @Test func aSessionUploadedInFragmentsThatSplitFramesIsCommittedThroughPutChunkedFile() async throws {
        try await Self.run { uploader in
            let token = try await uploader.create()
            let stream = Self.sessionStream(of: Self.document)
            let cuts = [0, 7, 20_011, stream.count]  // inside a frame header, inside a payload, the end
            for (start, end) in zip(cuts, cuts.dropFirst()) {
                let reply = try await uploader.update(token, offset: start, stream[start..<end])
                #expect(reply.status == 200)
                #expect(reply.header("X-WOPI-UploadSessionCurrentOffset") == String(end))
            }
            let committed = try await uploader.commit(token, content: Self.document)
            #expect(committed.status == 200, "\(committed.header("X-WOPI-ServerError") ?? "")")
            #expect(try await uploader.content() == Self.document)
            let after = try await uploader.update(token, offset: stream.count, [])
            #expect(after.status == 410, "a committed session is gone")
            let lock = try await uploader.wopi.post(
                uploader.wopi.fileURL(uploader.file), ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "editor"])
            #expect(lock.status == 200)
            #expect(try await uploader.commit(token, content: Self.document, lock: "editor").status == 410)
        }
    }

    @Test func refusedUpdatesAddNothingAndNameWhereToContinue() async throws {
        try await Self.run { uploader in
            let token = try await uploader.create()
            let stream = Self.sessionStream(of: Self.document)
            #expect(try await uploader.update(token, offset: 0, stream[0..<1000]).status == 200)
            let gap = try await uploader.update(token, offset: 1500, stream[1500..<2000])
            #expect(gap.status == 400)
            #expect(gap.header("X-WOPI-UploadSessionCurrentOffset") == "1000")
            let again = try await uploader.update(token, offset: 0, stream[0..<1000])
            #expect(again.status == 400, "a fragment sent twice (its answer lost) is refused")
            #expect(again.header("X-WOPI-UploadSessionCurrentOffset") == "1000")
            let cut = try await uploader.update(token, offset: 1000, stream[1000..<1500], announced: 4000)
            #expect(cut.status == 400, "a body shorter than X-WOPI-ContentRangeLength (a dropped connection)")
            #expect(cut.header("X-WOPI-UploadSessionCurrentOffset") == "1000")
            let long = try await uploader.update(token, offset: 1000, stream[1000..<1500], announced: 100)
            #expect(long.status == 400)
            for headers in [
                ["X-WOPI-Override": "UPDATE_UPLOAD_SESSION", "X-WOPI-ContentRangeOffset": "0"],
                [
                    "X-WOPI-Override": "UPDATE_UPLOAD_SESSION", "X-WOPI-UploadSessionToken": token,
                    "X-WOPI-ContentRangeOffset": "-1", "X-WOPI-ContentRangeLength": "0",
                ],
            ] {
                #expect(try await uploader.wopi.post(uploader.wopi.fileURL(uploader.file), headers).status == 400)
            }
            #expect(try await uploader.update(token, offset: 1000, stream[1000...]).status == 200)
            #expect(try await uploader.commit(token, content: Self.document).status == 200)
            #expect(try await uploader.content() == Self.document, "the refused bytes never counted")
        }
    }

    @Test func aSessionBelongsToItsFileAndExpiresOnTheHostsClock() async throws {
        try await Self.run { uploader in
            let other = try await uploader.wopi.seedFile("Other.docx", "").id
            let token = try await uploader.create()
            let stream = Self.sessionStream(of: Self.document)
            #expect(try await uploader.update(token, offset: 0, stream[0..<10], on: other).status == 410)
            #expect(try await uploader.update("no-such-session", offset: 0, stream[0..<10]).status == 410)
            uploader.wopi.clock.advance(by: 20 * 60)
            #expect(try await uploader.update(token, offset: 0, stream[0..<10]).status == 200)
            uploader.wopi.clock.advance(by: 20 * 60)
            #expect(
                try await uploader.update(token, offset: 10, stream[10...]).status == 200,
                "40 minutes after creation, 20 after the last update")
            uploader.wopi.clock.advance(by: 31 * 60)
            let expired = try await uploader.commit(token, content: Self.document)
            #expect(expired.status == 410)
            #expect(expired.header("X-WOPI-ServerError")?.contains("CREATE_UPLOAD_SESSION") == true)
            #expect(try await uploader.content() == [], "the file is unchanged")
        }
    }

    @Test func aCommitThatFailsKeepsTheSessionForARetry() async throws {
        try await Self.run { uploader in
            let token = try await uploader.create()
            let stream = Self.sessionStream(of: Self.document)
            let half = stream.count / 2
            #expect(try await uploader.update(token, offset: 0, stream[..<half]).status == 200)
            #expect(try await uploader.commit(token, content: Self.document).status == 400, "chunks still missing")
            #expect(try await uploader.commit(token, content: Self.document, sequence: "999").status == 412)
            #expect(try await uploader.update(token, offset: half, stream[half...]).status == 200)
            #expect(try await uploader.commit(token, content: Self.document).status == 200)
            #expect(try await uploader.content() == Self.document)
        }
    }

    @Test func creatingASessionRemovesTheExpiredOnes() async throws {
        let store = InMemoryUploadSessionStore()
        try await Self.run(store: store) { uploader in
            let old = try await uploader.create()
            #expect(try await uploader.update(old, offset: 0, [1, 2, 3]).status == 200)
            uploader.wopi.clock.advance(by: 31 * 60)
            let new = try await uploader.create()
            #expect(new != old)
            #expect(await store.session(old) == nil, "the expired session and its bytes are gone")
            #expect(await store.session(new)?.length == 0)
        }
    }
}
