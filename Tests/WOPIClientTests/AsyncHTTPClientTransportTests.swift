import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import WOPIClient
import WOPIServer
import WOPIStorage

/// ``AsyncHTTPClientTransport`` over a real socket to a host on 127.0.0.1: what the in-process suites cannot see
/// (bodies streamed both ways with their length, a status from the wire, a connection that fails). The client's
/// operations themselves are tested in-process (`WOPIClientOperationTests`).
@Suite("AsyncHTTPClientTransport over a real socket")
struct AsyncHTTPClientTransportTests {
    @Test("a 3 MiB PutFile and GetFile stream through the socket, with progress and their length")
    func streamsBothWays() async throws {
        try await OAuthWOPIHost.run(overSocket: true) { live in
            let root = try await live.host.storage.rootContainer(forUser: live.user)
            let welcome = try #require(try await live.host.storage.child(named: "Welcome.docx", in: root.id))
            let file = try WOPIResource(
                endpoint: live.endpoint("files", welcome.id),
                accessToken: live.wopiToken(.file(welcome.id), lifetime: 3600).token)
            try await withClient { client in
                try await client.lock(file, lockID: "socket")
                let size = 3 * 1024 * 1024 + 17
                let upload = ProgressLog()
                let version = try await client.putFile(
                    file, content: TestContent.pattern(size: size, seed: 3), lock: "socket", progress: upload.callback)
                #expect(upload.isMonotonic && upload.last?.0 == Int64(size))
                let download = ProgressLog()
                let content = try await client.getFile(file, progress: download.callback)
                #expect(content.version == version && content.length == Int64(size))
                let (digest, count) = try await TestContent.sha256(content.body)
                #expect(count == Int64(size))
                #expect(digest == (try await TestContent.sha256(TestContent.pattern(size: size, seed: 3))).0)
                #expect(download.isMonotonic && download.last?.0 == Int64(size))
                try await client.unlock(file, lockID: "socket")
            }
        }
    }

    @Test("a forged token is the host's 401, and a refused connection is a transport error")
    func failures() async throws {
        try await OAuthWOPIHost.run(overSocket: true) { live in
            let root = try await live.host.storage.rootContainer(forUser: live.user)
            try await withClient { client in
                let forged = try WOPIResource(endpoint: live.endpoint("containers", root.id), accessToken: "forged")
                let error = await clientError { try await client.checkContainerInfo(forged) }
                #expect(error?.code == .unauthorized && error?.status == 401)
            }
            // Port 1 on the loopback interface: nothing listens there. AsyncHTTPClient retries a refused connection
            // until its connect timeout, so this client's is 1 s instead of the default 10 s.
            var configuration = AsyncHTTPClientTransport.defaultConfiguration
            configuration.timeout.connect = .seconds(1)
            let impatient = AsyncHTTPClientTransport(configuration: configuration)
            try await withClient(over: impatient) { client in
                let nowhere = try WOPIResource(string: "http://127.0.0.1:1/wopi/files/1?access_token=t")
                #expect(await clientError { try await client.checkFileInfo(nowhere) }?.code == .transport)
            }
            try await impatient.shutdown()
        }
    }
}
