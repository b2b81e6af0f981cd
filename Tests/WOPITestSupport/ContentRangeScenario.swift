import Crypto
import Foundation
import HTTPTypes
import NIOCore
import WOPIHTTPEdge
import WOPIServer
public import WOPIStorage

/// GetFile with `Range`, and `FileUrl`, answered by `WOPIHost.handle` in-process over any backend: the same checks
/// for the in-memory, file-system, SQLite and PostgreSQL storage. A failed check throws ``Failure`` naming it.
public enum ContentRangeScenario {
    /// A check that did not hold.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// 3 MiB and 17 bytes: ranges cross the 1 MiB chunks of the SQLite and PostgreSQL storage.
    static let size = 3 * 1024 * 1024 + 17

    /// Runs every check on a host over `storage` (a fresh one: the scenario creates a user's root and a file).
    public static func run(on storage: any StorageBackend) async throws {
        let clock = TestClock()
        let users = InMemoryUserDirectory()
        await users.save(WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        let key = SymmetricKey(size: .bits256)
        var configuration = WOPIHostConfiguration()
        configuration.publicURL = "http://wopi.test"
        configuration.fileURLs = FileURLs(tokenKey: key, lifetime: 300)
        let host = WOPIHost(
            storage: storage, locks: InMemoryLockStore(), users: users, tokens: AccessTokenSigner(key: key),
            configuration: configuration, policy: OwnerAccessPolicy(), now: clock.dateSource)
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let root = try await storage.rootContainer(forUser: "ana")
        let file = try await storage.createFile(
            named: "big.bin", in: root.id, content: ByteStream(chunks: [ByteBuffer(bytes: bytes)]), overwrite: false)
        let token = host.tokens.mint(
            AccessToken(userID: "ana", resource: .file(file.id), expiresAt: clock.date.addingTimeInterval(3600)))
        let contents = "/wopi/files/\(file.id)/contents?access_token=\(token)"
        let n = Int64(size)

        // One range: 206, its bytes, Content-Range and Content-Length, streamed.
        let parts: [(String, Range<Int>)] = [
            ("bytes=0-0", 0..<1), ("bytes=1048570-1048590", 1_048_570..<1_048_591),
            ("bytes=\(size - 10)-", (size - 10)..<size), ("bytes=-100", (size - 100)..<size),
            ("bytes=5-99999999999", 5..<size), ("bytes=-99999999", 0..<size), (" BYTES = 2 - 3 ", 2..<4),
        ]
        var etag = ""
        for (header, range) in parts {
            let response = await host.handle(get(contents, ["Range": header]))
            try expect(response.status == .partialContent, "\(header): status \(response.status.code), not 206")
            try expect(
                response.headers[.contentRange] == "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)",
                "\(header): Content-Range \(response.headers[.contentRange] ?? "none")")
            try await expectBody(response, Array(bytes[range]), header)
            try expect(response.headers[.acceptRanges] == "bytes", "\(header): Accept-Ranges")
            etag = response.headers[.eTag] ?? ""
        }
        try expect(etag == "\"\(file.version)\"", "the ETag is the quoted version, not \(etag)")

        // Past the end: 416 with `bytes */length`, and nothing read.
        for header in ["bytes=\(size)-", "bytes=\(size)-\(size + 5)", "bytes=-0"] {
            let response = await host.handle(get(contents, ["Range": header]))
            try expect(response.status == .rangeNotSatisfiable, "\(header): status \(response.status.code), not 416")
            try expect(response.headers[.contentRange] == "bytes */\(n)", "\(header): Content-Range on 416")
        }

        // Ignored: several ranges, other units, malformed values, an If-Range of another version: the whole file.
        for headers in [
            ["Range": "bytes=0-1,5-6"], ["Range": "items=0-1"], ["Range": "bytes=9-2"], ["Range": "bytes=a-b"],
            ["Range": "bytes=0-1", "If-Range": "\"another version\""], [:],
        ] {
            let response = await host.handle(get(contents, headers))
            try expect(response.status == .ok, "\(headers): status \(response.status.code), not 200")
            try await expectBody(response, bytes, "\(headers)")
        }
        let matching = await host.handle(get(contents, ["Range": "bytes=0-1", "If-Range": etag]))
        try expect(matching.status == .partialContent, "an If-Range of the current version serves the range")

        // FileUrl: no token and no proof; a range too; the current content after a save; refused when lapsed.
        let info = try await json(await host.handle(get("/wopi/files/\(file.id)?access_token=\(token)")))
        guard let fileURL = info["FileUrl"] as? String, fileURL.hasPrefix("http://wopi.test/wopi/files/") else {
            throw Failure(
                description: "CheckFileInfo has no FileUrl below the public URL: \(info["FileUrl"] ?? "none")")
        }
        try expect(!fileURL.contains("access_token"), "the FileUrl carries no access token")
        let direct = String(fileURL.dropFirst("http://wopi.test".count))
        let ranged = await host.handle(get(direct, ["Range": "bytes=-3"]))
        try expect(ranged.status == .partialContent, "FileUrl with Range: status \(ranged.status.code)")
        try await expectBody(ranged, Array(bytes.suffix(3)), "FileUrl with Range")
        _ = try await storage.writeFile(
            file.id, content: ByteStream(chunks: [ByteBuffer(string: "v2")]), expectedVersion: nil)
        try await expectBody(await host.handle(get(direct)), Array("v2".utf8), "FileUrl after a save")
        let tampered = await host.handle(get(direct.replacingOccurrences(of: "ticket=", with: "ticket=x")))
        try expect(tampered.status == .unauthorized, "a tampered FileUrl: status \(tampered.status.code), not 401")
        let withToken = await host.handle(get("/wopi/files/\(file.id)/fileurl?ticket=\(token)"))
        try expect(withToken.status == .unauthorized, "an access token as a FileUrl ticket: \(withToken.status.code)")
        clock.advance(by: 301)
        let lapsed = await host.handle(get(direct))
        try expect(lapsed.status == .unauthorized, "a FileUrl after its lifetime: status \(lapsed.status.code)")
    }

    static func get(_ target: String, _ headers: [String: String] = [:]) -> WOPIRequest {
        var head = HTTPRequest(method: .get, scheme: "http", authority: "wopi.test", path: target)
        for (name, value) in headers { head.headerFields[HTTPField.Name(name)!] = value }
        return WOPIRequest(head: head)
    }

    static func expect(_ condition: Bool, _ what: @autoclosure () -> String) throws {
        guard condition else { throw Failure(description: what()) }
    }

    /// The body is streamed (never collected into one buffer by the host), declares its length, and holds `bytes`.
    static func expectBody(_ response: WOPIResponse, _ bytes: [UInt8], _ what: String) async throws {
        guard case .stream(let stream) = response.body else {
            throw Failure(description: "\(what): the content is not streamed (\(response.status.code))")
        }
        try expect(stream.knownLength == Int64(bytes.count), "\(what): length \(stream.knownLength ?? -1)")
        var received: [UInt8] = []
        for try await chunk in stream { received += chunk.readableBytesView }
        try expect(received == bytes, "\(what): \(received.count) bytes that differ from the \(bytes.count) expected")
    }

    static func json(_ response: WOPIResponse) async throws -> [String: Any] {
        guard case .buffer(let buffer) = response.body else { return [:] }
        return try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any] ?? [:]
    }
}
