import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIChunking
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// No value in a request can stop the host: numbers near `Int64.max` in every header a client's number is read
/// from, and limits that count what is stored rather than what is sent. A trap here ends the test process, so a
/// regression fails loudly.
struct HostileRequestTests {
    typealias Frames = ChunkedTransferFrames

    /// Numbers a client may send where the host reads one: the edges of `Int64`, past them, and what is no number.
    static let hostileNumbers = [
        "9223372036854775807", "9223372036854775806", "9223372036854775808", "-9223372036854775808", "-1", "+1",
        "1e9", "0x10", " 7 ", "", "\u{0663}", "99999999999999999999999999", "4294967296",
    ]

    @Test("RequestNumber reads digits only and never overflows")
    func requestNumbers() {
        #expect(RequestNumber.nonNegative("9223372036854775807") == Int64.max)
        #expect(RequestNumber.nonNegative(" 42\t") == 42)
        #expect(RequestNumber.nonNegative("0") == 0)
        for text in ["9223372036854775808", "-1", "+1", "1e3", "0x1", "", " ", "4 2", "\u{0663}", "1_000"] {
            #expect(RequestNumber.nonNegative(text) == nil, "\(text)")
        }
        #expect(RequestNumber.sum(Int64.max, 1) == nil)
        #expect(RequestNumber.sum([Int64.max - 1, 1]) == Int64.max)
        #expect(RequestNumber.sum([Int64.max, 1, -5]) == nil)
    }

    @Test("a Range to Int64.max serves the whole file from GetFile and from FileUrl alone")
    func rangeToTheLargestNumber() async throws {
        let cases: [(String, Int64, ByteRangeRequest)] = [
            ("bytes=0-9223372036854775807", 10, .part(0..<10)), ("bytes=9-9223372036854775807", 10, .part(9..<10)),
            ("bytes=-9223372036854775807", 10, .part(0..<10)), ("bytes=9223372036854775807-", 10, .unsatisfiable),
            ("bytes=9223372036854775807-9223372036854775807", 10, .unsatisfiable),
            ("bytes=0-9223372036854775808", 10, .whole),
        ]
        for (header, length, expected) in cases {
            #expect(ByteRangeRequest(header: header, length: length) == expected, "\(header)")
        }
        var configuration = WOPIHostConfiguration()
        configuration.fileURLs = FileURLs(tokenKey: .init(size: .bits256))
        try await TestHost.run(configuration: configuration) { wopi in
            let file = try await wopi.seedFile("a.txt", "0123456789")
            let info = try await wopi.get(wopi.fileURL(file.id)).json()
            let fileURL = try #require(info["FileUrl"] as? String)
            for url in [wopi.fileURL(file.id, "/contents"), fileURL] {
                let reply = try await wopi.get(url, headers: ["Range": "bytes=0-9223372036854775807"])
                #expect(reply.status == 206)
                #expect(reply.text == "0123456789")
                #expect(reply.header("Content-Range") == "bytes 0-9/10")
            }
        }
    }

    @Test("an upload session's length near Int64.max is a 413 and adds nothing")
    func uploadSessionLengthPastTheLargestNumber() async throws {
        try await UploadSessionTests.run { uploader in
            let token = try await uploader.create()
            let stream = UploadSessionTests.sessionStream(of: UploadSessionTests.document)
            #expect(try await uploader.update(token, offset: 0, stream[0..<10]).status == 200)
            let huge = try await uploader.update(token, offset: 10, stream[10..<20], announced: Int(Int64.max))
            #expect(huge.status == 413)
            #expect(try await uploader.update(token, offset: 10, stream[10...]).status == 200, "nothing was added")
            #expect(try await uploader.commit(token, content: UploadSessionTests.document).status == 200)
            #expect(try await uploader.content() == UploadSessionTests.document)
        }
    }

    /// A host with co-authoring and a 1 MiB upload limit, and a file of one 300,000-byte chunk (a full-file one).
    static func runLimited(_ body: @Sendable (ChunkedTransferTests.Session, Frames.Chunk) async throws -> Void)
        async throws
    {
        var configuration = WOPILockExtensionTests.coauthoring
        configuration.maximumFileSize = 1 << 20
        try await TestHost.run(configuration: configuration) { wopi in
            let content = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
            let file = try await wopi.storage.createFile(
                named: "Data.bin", in: try await wopi.storage.rootContainer(forUser: wopi.user).id,
                content: ByteStream(buffer: ByteBuffer(bytes: content)), overwrite: false)
            let chunk = try #require(Frames.chunks(of: content).chunks.first)
            #expect(chunk.bytes.count == content.count, "one full-file chunk")
            try await body(ChunkedTransferTests.Session(wopi: wopi, file: file.id), chunk)
        }
    }

    /// A PutChunkedFile of MainContent naming `chunk`, known to the host, `times` times, with no Chunk frame.
    static func putRepeating(_ chunk: Frames.Chunk, times: Int, session: ChunkedTransferTests.Session) async throws
        -> TestHTTP.Reply
    {
        let signature = ChunkSignature(chunkID: chunk.id.base64, length: UInt64(chunk.bytes.count))
        let message = PutChunkedFileRequestMessage(signatures: [
            StreamSignature(
                streamID: "MainContent", chunkingScheme: .fullFile,
                chunkSignatures: Array(repeating: signature, count: times))
        ])
        return try await session.wopi.send(
            .POST, session.wopi.fileURL(session.file, "/contents"),
            headers: [
                "X-WOPI-Override": "PUT_CHUNKED_FILE", "X-WOPI-SequenceNumber": try await session.sequenceNumber(),
                "X-WOPI-CoauthLockId": "C1",
            ],
            bodyBuffer: try Frames.body(message))
    }

    @Test("PutChunkedFile's limit counts the composed file, not the bytes sent")
    func putChunkedFileCountsWhatIsStored() async throws {
        try await Self.runLimited { session, chunk in
            try await session.coauthLock("C1")
            let before = try await session.content()
            let amplified = try await Self.putRepeating(chunk, times: 4, session: session)
            #expect(amplified.status == 413, "1.2 MB composed from a request of a few hundred bytes")
            #expect(try await session.content() == before, "nothing was written")
            let within = try await Self.putRepeating(chunk, times: 3, session: session)
            #expect(within.status == 200)
            #expect(try await session.content() == Array([chunk.bytes, chunk.bytes, chunk.bytes].joined()))
        }
    }

    @Test("a GetChunks answer carries at most the bytes of the streams asked for")
    func getChunksIsBoundedByTheStream() async throws {
        try await Self.runLimited { session, chunk in
            func getChunks(_ times: Int) async throws -> TestHTTP.Reply {
                let message = GetChunksRequestMessage(contentFilters: [
                    .init(
                        streamID: "MainContent", chunkingScheme: .fullFile,
                        chunkRangesToReturn: Array(repeating: .init(chunkID: chunk.id.base64), count: times))
                ])
                return try await session.wopi.send(
                    .POST, session.wopi.fileURL(session.file), headers: ["X-WOPI-Override": "GET_CHUNKS"],
                    bodyBuffer: try Frames.body(message))
            }
            let once = try await getChunks(1)
            #expect(once.status == 200)
            #expect(try Frames.read(once.body).frames.map(\.payload) == [chunk.bytes])
            #expect(try await getChunks(2).status == 400, "the same range twice is more than the stream holds")
        }
    }

    @Test("every number a request carries, hostile, answers below 500 and the host keeps serving")
    func hostileNumbersInEveryNumericHeader() async throws {
        var configuration = WOPILockExtensionTests.coauthoring
        configuration.fileURLs = FileURLs(tokenKey: .init(size: .bits256))
        try await TestHost.run(configuration: configuration) { wopi in
            let file = try await wopi.seedFile("Plan.docx", "0123456789")
            let url = wopi.fileURL(file.id)
            let session = try await wopi.post(url, ["X-WOPI-Override": "CREATE_UPLOAD_SESSION"])
            let sessionToken = try #require(try session.json()["UploadSessionToken"] as? String)
            #expect(
                try await wopi.send(
                    .POST, url,
                    headers: [
                        "X-WOPI-Override": "UPDATE_UPLOAD_SESSION", "X-WOPI-UploadSessionToken": sessionToken,
                        "X-WOPI-ContentRangeOffset": "0", "X-WOPI-ContentRangeLength": "10",
                    ], bodyBuffer: ByteBuffer(bytes: Array(repeating: 1, count: 10))
                ).status == 200)
            let fileURL = try #require(try await wopi.get(url).json()["FileUrl"] as? String)
            for value in Self.hostileNumbers {
                var requests: [(String, String, [String: String])] = [
                    ("GET", wopi.fileURL(file.id, "/contents"), ["X-WOPI-MaxExpectedSize": value]),
                    (
                        "POST", url,
                        ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L", "X-WOPI-LockExpirationTimeout": value]
                    ),
                    (
                        "POST", url,
                        ["X-WOPI-Override": "REFRESH_LOCK", "X-WOPI-Lock": "L", "X-WOPI-LockExpirationTimeout": value]
                    ),
                    ("POST", url, ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "L"]),
                    (
                        "POST", url,
                        [
                            "X-WOPI-Override": "GET_COAUTH_LOCK", "X-WOPI-CoauthLockId": "C",
                            "X-WOPI-CoauthLockType": "Coauth", "X-WOPI-CoauthLockExpirationTimeout": value,
                        ]
                    ),
                    (
                        "POST", url,
                        [
                            "X-WOPI-Override": "REFRESH_COAUTH_LOCK", "X-WOPI-CoauthLockId": "C",
                            "X-WOPI-CoauthLockExpirationTimeout": value,
                        ]
                    ),
                    ("POST", url, ["X-WOPI-Override": "UNLOCK_COAUTH_LOCK", "X-WOPI-CoauthLockId": "C"]),
                    (
                        "POST", wopi.fileURL(file.id, "/contents"),
                        ["X-WOPI-Override": "PUT_CHUNKED_FILE", "X-WOPI-SequenceNumber": value]
                    ),
                    ("POST", wopi.fileURL(file.id, "/contents"), ["X-WOPI-Override": "PUT", "X-WOPI-Size": value]),
                ]
                for (offset, length) in [(value, "1"), ("10", value), (value, value)] {
                    requests.append(
                        (
                            "POST", url,
                            [
                                "X-WOPI-Override": "UPDATE_UPLOAD_SESSION", "X-WOPI-UploadSessionToken": sessionToken,
                                "X-WOPI-ContentRangeOffset": offset, "X-WOPI-ContentRangeLength": length,
                            ]
                        ))
                }
                for range in ["bytes=0-\(value)", "bytes=\(value)-", "bytes=-\(value)", "bytes=\(value)-\(value)"] {
                    requests.append(("GET", wopi.fileURL(file.id, "/contents"), ["Range": range]))
                    requests.append(("GET", fileURL, ["Range": range]))
                }
                for (method, target, headers) in requests {
                    let reply = try await wopi.send(
                        method == "GET" ? .GET : .POST, target, headers: headers,
                        bodyBuffer: ByteBuffer(bytes: [1, 2, 3]))
                    #expect(reply.status < 500, "\(method) \(headers): \(reply.status)")
                }
            }
            #expect(try await wopi.get(url).status == 200, "the host still serves")
            #expect(try await wopi.get(wopi.fileURL(file.id, "/contents")).text == "0123456789", "and lost nothing")
        }
    }
}
