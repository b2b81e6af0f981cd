import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WOPIModels
import WOPIStorage
import WOPITestSupport

/// A WOPI client for stress tests, over its own AsyncHTTPClient with room for many requests in flight.
///
/// File bodies stream both ways: uploads are generated from a ``ContentPattern`` as they are sent, and
/// downloads are digested as they arrive (``ReceivedBody``).
final class WOPIClient: Sendable {
    /// A response without its body (small bodies, such as CheckFileInfo's JSON, are kept).
    struct Reply: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer

        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    private let http: HTTPClient
    private let timeout: TimeAmount = .seconds(60)

    /// - Parameter connections: the most connections to the host at once (AsyncHTTPClient queues beyond it).
    init(connections: Int = 64) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        configuration.timeout = .init(connect: TimeAmount(Polling.patience))
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    func shutdown() async throws { try await http.shutdown() }

    /// Runs `body`, then shuts this client down. When `body` throws, the host `running` names (the one serving at
    /// that moment) is killed with SIGKILL first, so a failed test leaves no `serve` process behind.
    func use(killingOnFailure running: () -> HostProcess, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await running().stop(signal: SIGKILL)
            try await shutdown()
            throw error
        }
        try await shutdown()
    }

    func checkFileInfo(_ file: WOPIFile, at base: String) async throws -> (Reply, CheckFileInfo?) {
        let reply = try await send(HTTPClientRequest(url: file.url(base)))
        let info =
            reply.status == 200
            ? try? JSONDecoder().decode(CheckFileInfo.self, from: Data(reply.body.readableBytesView)) : nil
        return (reply, info)
    }

    /// Lock, Unlock, RefreshLock or GetLock (`override`), with `lock` as `X-WOPI-Lock` when given.
    func lockOperation(_ override: String, _ file: WOPIFile, lock: String?, at base: String) async throws -> Reply {
        var request = HTTPClientRequest(url: file.url(base))
        request.method = .POST
        request.headers.add(name: WOPIHeader.override, value: override)
        if let lock { request.headers.add(name: WOPIHeader.lock, value: lock) }
        return try await send(request)
    }

    /// PutFile of `content`, streamed as it is generated.
    func putFile(_ file: WOPIFile, lock: String?, content: ContentPattern, at base: String) async throws -> Reply {
        try await putFile(file, lock: lock, body: content.stream, length: content.size, at: base)
    }

    /// PutFile of `body`, announced as `length` bytes (a body that fails midway makes the client drop the
    /// connection, as a client that disconnects does).
    func putFile(_ file: WOPIFile, lock: String?, body: ByteStream, length: Int, at base: String) async throws
        -> Reply
    {
        var request = HTTPClientRequest(url: file.contentsURL(base))
        request.method = .POST
        request.headers.add(name: WOPIHeader.override, value: WOPIOverride.put)
        if let lock { request.headers.add(name: WOPIHeader.lock, value: lock) }
        request.body = .stream(body, length: .known(Int64(length)))
        return try await send(request)
    }

    /// GetFile's response with its body still unread, for a reader that takes its time.
    func openGetFile(_ file: WOPIFile, at base: String) async throws -> HTTPClientResponse {
        try await http.execute(HTTPClientRequest(url: file.contentsURL(base)), timeout: timeout)
    }

    /// GetFile; the body is digested as it streams in.
    func getFile(_ file: WOPIFile, at base: String) async throws -> (Reply, ReceivedBody) {
        let response = try await http.execute(HTTPClientRequest(url: file.contentsURL(base)), timeout: timeout)
        let body = try await ReceivedBody.digesting(response.body)
        return (Reply(status: Int(response.status.code), headers: response.headers, body: ByteBuffer()), body)
    }

    private func send(_ request: HTTPClientRequest) async throws -> Reply {
        let response = try await http.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: body)
    }
}
