import Crypto
import Foundation
import NIOCore
import Testing
import WOPIDeployment
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// `Range` on GetFile and `FileUrl`, resolved once (``ByteRangeRequest``), answered in-process on the in-memory,
/// file-system and SQLite storage (PostgreSQL: `PostgresTests`), and once over a real socket.
@Suite struct ContentRangeTests {
    @Test("the Range header, resolved against a length")
    func resolving() {
        let cases: [(String?, Int64, ByteRangeRequest)] = [
            (nil, 10, .whole), ("bytes=0-0", 10, .part(0..<1)), ("bytes=2-", 10, .part(2..<10)),
            ("bytes=-3", 10, .part(7..<10)), ("bytes=-30", 10, .part(0..<10)), ("bytes=5-50", 10, .part(5..<10)),
            ("bytes=10-", 10, .unsatisfiable), ("bytes=-0", 10, .unsatisfiable), ("bytes=0-", 0, .unsatisfiable),
            ("bytes=-1", 0, .unsatisfiable), ("bytes=3-2", 10, .whole), ("bytes=0-1,4-5", 10, .whole),
            ("pages=1-2", 10, .whole), ("bytes=x-2", 10, .whole), ("bytes=1", 10, .whole), ("bytes=-", 10, .whole),
            ("bytes=+1-2", 10, .whole), ("bytes=99999999999999999999-", 10, .whole),
        ]
        for (header, length, expected) in cases {
            #expect(ByteRangeRequest(header: header, length: length) == expected, "\(header ?? "none") of \(length)")
        }
        #expect(ByteRangeRequest.contentRange(7..<10, length: 10) == "bytes 7-9/10")
        #expect(ByteRangeRequest.unsatisfiedRange(length: 10) == "bytes */10")
    }

    @Test func inMemory() async throws {
        try await ContentRangeScenario.run(on: InMemoryStorage())
    }

    @Test func fileSystem() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await ContentRangeScenario.run(on: try DeploymentStores.fileSystem(directory: directory.url).storage)
    }

    @Test func sqlite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await ContentRangeScenario.run(on: try DeploymentStores.sqlite(directory: directory.url).storage)
    }

    @Test("over a real socket: 206 with Content-Length and Content-Range, 416, and FileUrl without a token")
    func overSocket() async throws {
        var configuration = WOPIHostConfiguration()
        configuration.fileURLs = FileURLs(tokenKey: .init(size: .bits256))
        try await TestHost.run(configuration: configuration, overSocket: true) { wopi in
            let file = try await wopi.seedFile("a.txt", "0123456789")
            let part = try await wopi.get(wopi.fileURL(file.id, "/contents"), headers: ["Range": "bytes=3-5"])
            #expect(part.status == 206)
            #expect(part.text == "345")
            #expect(part.header("Content-Length") == "3")
            #expect(part.header("Content-Range") == "bytes 3-5/10")
            #expect(part.header("Accept-Ranges") == "bytes")
            let whole = try await wopi.get(wopi.fileURL(file.id, "/contents"), headers: ["Range": "bytes=0-1,3-4"])
            #expect(whole.status == 200 && whole.text == "0123456789", "several ranges: the whole file")
            let past = try await wopi.get(wopi.fileURL(file.id, "/contents"), headers: ["Range": "bytes=10-"])
            #expect(past.status == 416)
            #expect(past.header("Content-Range") == "bytes */10")
            let info = try await wopi.get(wopi.fileURL(file.id)).json()
            let fileURL = try #require(info["FileUrl"] as? String)
            #expect(fileURL.hasPrefix(wopi.wopiRoot + "/files/\(file.id)/fileurl?ticket="))
            let direct = try await wopi.get(fileURL, headers: ["Range": "bytes=-2"])
            #expect(direct.status == 206 && direct.text == "89")
            let plain = try await wopi.get(fileURL)
            #expect(plain.status == 200 && plain.text == "0123456789")
            #expect(plain.header("X-WOPI-ItemVersion") == file.version)
        }
    }
}
