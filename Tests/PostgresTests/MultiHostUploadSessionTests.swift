import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WOPIChunking
import WOPIClusterTestSupport
import WOPIModels
import WOPITestSupport

/// CSPP Plus resumable file transfer over real HTTP, through two `serve` processes on one PostgreSQL database: an
/// upload session started on one host, its connection dropped mid-update on the other, resumed from the offset the
/// host names, and committed through PutChunkedFile; GetFile then answers the local file's bytes.
@Suite("PostgreSQL: upload sessions across hosts")
struct MultiHostUploadSessionTests {
    static let coauthoring = [
        "--coauthoring", "--real-time-channel-url", "https://rtc.example.com/rtc",
        "--collaboration-service-url", "https://collab.example.com/ocs",
    ]

    /// A 3 MiB document of six entries whose bytes do not repeat.
    static func document() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return TestZip.make(
            (0..<6).map { entry in
                ("word/part\(entry).xml", (0..<(512 * 1024)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            })
    }

    @Test("upload part, drop the connection, resume on another host, commit: GetFile answers the local file")
    func resumeAcrossHosts() async throws {
        let cluster = try await HostCluster.start(2, extraArguments: Self.coauthoring)
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        do {
            let local = folder.appending("Report.docx")
            try Data(Self.document()).write(to: local)
            try await cluster.importFile("Report.docx", content: Array("the old content".utf8))
            let (path, token) = try await cluster.token(for: "Report.docx")
            func post(_ host: Int, suffix: String = "", _ headers: [(String, String)], body: [UInt8]? = nil)
                async throws -> TestHTTP.Reply
            {
                try await TestHTTP.send(
                    .POST, cluster.url(path, token: token, host: host, suffix: suffix), headers: headers,
                    body: body.map { ByteBuffer(bytes: $0) })
            }
            func update(_ host: Int, session: String, offset: Int, _ bytes: ArraySlice<UInt8>) async throws
                -> TestHTTP.Reply
            {
                try await post(
                    host,
                    [
                        ("X-WOPI-Override", "UPDATE_UPLOAD_SESSION"), ("X-WOPI-UploadSessionToken", session),
                        ("X-WOPI-ContentRangeOffset", String(offset)),
                        ("X-WOPI-ContentRangeLength", String(bytes.count)),
                    ], body: Array(bytes))
            }
            let lock = try await post(
                0,
                [
                    ("X-WOPI-Override", "GET_COAUTH_LOCK"), ("X-WOPI-CoauthLockId", "editor-1"),
                    ("X-WOPI-CoauthLockType", "Coauth"), ("X-WOPI-CoauthLockExpirationTimeout", "600"),
                ])
            try #require(lock.status == 200)
            let info = try await TestHTTP.send(.GET, cluster.url(path, token: token, host: 1))
            #expect(try info.json()["SupportsResumableFileTransfer"] as? Bool == true)

            let content = Array(try Data(contentsOf: local))
            let (chunks, _) = ChunkedTransferFrames.chunks(of: content)
            let stream = ChunkedTransferFrames.sessionStream(chunks)
            let created = try await post(0, [("X-WOPI-Override", "CREATE_UPLOAD_SESSION")])
            try #require(created.status == 200)
            let session = try #require(try created.json()["UploadSessionToken"] as? String)
            let third = stream.count / 3
            let first = try await update(0, session: session, offset: 0, stream[..<third])
            #expect(first.status == 200)
            #expect(first.header("X-WOPI-UploadSessionCurrentOffset") == String(third))

            // Host 1 gets the rest announced, half of it sent, then the connection drops.
            let rest = stream.count - third
            let port = try #require(URLComponents(string: cluster.bases[1])?.port)
            let head =
                "POST \(path)?access_token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                + "X-WOPI-Override: UPDATE_UPLOAD_SESSION\r\nX-WOPI-UploadSessionToken: \(session)\r\n"
                + "X-WOPI-ContentRangeOffset: \(third)\r\nX-WOPI-ContentRangeLength: \(rest)\r\n"
                + "Content-Length: \(rest)\r\n\r\n"
            try LoopbackPort.sendAndDrop(Array(head.utf8) + stream[third..<(third + rest / 2)], to: port)

            // The client asks where to continue (an empty update at 0): the dropped bytes never counted.
            let asked = try await update(1, session: session, offset: 0, [])
            #expect(asked.status == 400)
            let offset = try #require(Int(asked.header("X-WOPI-UploadSessionCurrentOffset") ?? ""))
            #expect(offset == third)
            let resumed = try await update(1, session: session, offset: offset, stream[offset...])
            #expect(resumed.status == 200)
            #expect(resumed.header("X-WOPI-UploadSessionCurrentOffset") == String(stream.count))

            func commit(_ host: Int, _ session: String) async throws -> TestHTTP.Reply {
                let sequence = try await post(host, [("X-WOPI-Override", "GET_SEQUENCE_NUMBER")])
                let number = try #require(sequence.header("X-WOPI-SequenceNumber"))
                let signature = StreamSignature(
                    streamID: StreamSignature.mainContent, chunkingScheme: .zip,
                    chunkSignatures: chunks.map {
                        ChunkSignature(chunkID: $0.id.base64, length: UInt64($0.bytes.count))
                    })
                let message = PutChunkedFileRequestMessage(signatures: [signature], uploadSessionTokenToCommit: session)
                return try await post(
                    host, suffix: "/contents",
                    [
                        ("X-WOPI-Override", "PUT_CHUNKED_FILE"), ("X-WOPI-SequenceNumber", number),
                        ("X-WOPI-CoauthLockId", "editor-1"),
                    ], body: Array(try ChunkedTransferFrames.body(message).readableBytesView))
            }
            let wrong = try await commit(1, "not-a-session")
            #expect(wrong.status == 410)
            #expect(wrong.header("X-WOPI-ServerError")?.contains("CREATE_UPLOAD_SESSION") == true)
            let committed = try await commit(1, session)
            #expect(committed.status == 200, "\(committed.header("X-WOPI-ServerError") ?? "")")

            let download = try await TestHTTP.send(.GET, cluster.url(path, token: token, host: 0, suffix: "/contents"))
            #expect(download.status == 200)
            #expect(download.bytes == Array(try Data(contentsOf: local)), "GetFile answers the local file")
            let again = try await commit(0, session)
            #expect(again.status == 410, "a committed session is gone on every host")
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
