import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WOPIClusterTestSupport
import WOPITestSupport

/// A PutFile body that sends its first bytes at once and the rest only when ``release()`` is called: a save held
/// mid-body while the test kills a process under it.
struct HeldBody: Sendable {
    let length: Int
    let stream: AsyncStream<ByteBuffer>
    private let continuation: AsyncStream<ByteBuffer>.Continuation
    private let rest: ArraySlice<UInt8>

    /// `bytes`, its first `holdAfter` bytes sent at once (all of them when `nil`).
    init(_ bytes: [UInt8], holdAfter: Int?) {
        let split = holdAfter ?? bytes.count
        (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        length = bytes.count
        rest = bytes[split...]
        Self.yield(bytes[..<split], to: continuation)
        if holdAfter == nil { continuation.finish() }
    }

    /// Sends the rest of the body.
    func release() {
        Self.yield(rest, to: continuation)
        continuation.finish()
    }

    private static func yield(_ bytes: ArraySlice<UInt8>, to continuation: AsyncStream<ByteBuffer>.Continuation) {
        for start in stride(from: bytes.startIndex, to: bytes.endIndex, by: 1 << 20) {
            continuation.yield(ByteBuffer(bytes: bytes[start..<min(start + (1 << 20), bytes.endIndex)]))
        }
    }
}

extension HostCluster {
    /// Sends PutFile of `body` with lock `L1` through host `host`; returns the status, or `nil` when the connection
    /// broke.
    func putFile(_ target: (path: String, token: String), host: Int, body: HeldBody) async throws -> Int? {
        var request = HTTPClientRequest(url: url(target.path, token: target.token, host: host, suffix: "/contents"))
        request.method = .POST
        request.headers.add(name: "X-WOPI-Override", value: "PUT")
        request.headers.add(name: "X-WOPI-Lock", value: "L1")
        request.body = .stream(body.stream, length: .known(Int64(body.length)))
        do {
            let response = try await TestHTTP.client.execute(request, timeout: .seconds(120))
            _ = try await response.body.collect(upTo: 1 << 20)
            return Int(response.status.code)
        } catch {
            return nil
        }
    }
}
