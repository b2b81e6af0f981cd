import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PostgresNIO
import PostgresStorage
import Testing
import WOPIClusterTestSupport
import WOPITestSupport

/// `kill -9` of one host of three while 8 PutFile streams run through it: half of them acknowledged, half stopped
/// mid-body when the host dies.
@Suite("PostgreSQL: a host killed mid-upload")
struct HostCrashTests {
    static let files = 8
    static let size = 2 * 1024 * 1024

    /// Version `generation` of file `index`: a byte pattern no other file or version has.
    static func content(_ index: Int, generation: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &* 7 &+ generation &* 101) }
    }

    @Test("every file holds one whole version afterwards, locks intact, the other hosts keep serving")
    func killMidPutFile() async throws {
        let cluster = try await HostCluster.start(3)
        let watcher = try await PostgresPool.open(
            try PostgresPool.Configuration(url: cluster.databaseURL), logger: PostgresServer.logger)
        do {
            var targets: [(path: String, token: String)] = []
            for index in 0..<Self.files {
                try await cluster.importFile("crash-\(index).bin", content: Self.content(index, generation: 0))
                let target = try await cluster.token(for: "crash-\(index).bin")
                let lock = try await TestHTTP.send(
                    .POST, cluster.url(target.path, token: target.token, host: 1),
                    headers: [("X-WOPI-Override", "LOCK"), ("X-WOPI-Lock", "crash-\(index)")])
                try #require(lock.status == 200)
                targets.append(target)
            }

            // Files 0-3 are sent whole and acknowledged; files 4-7 stop halfway until the host is dead.
            let fixedTargets = targets
            let gates = (0..<Self.files).map { _ in AsyncStream<Void>.makeStream() }
            // One element per whole upload answered (a kill between the commit and the answer would leave a new
            // version that the client never saw acknowledged).
            let answered = AsyncStream<Void>.makeStream()
            let uploads = Task {
                try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
                    for index in 0..<Self.files {
                        let complete = index < Self.files / 2
                        let gate = gates[index].stream
                        group.addTask {
                            let body = Self.content(index, generation: 1)
                            let half = body.count / 2
                            let stream = AsyncStream<ByteBuffer> { continuation in
                                Task {
                                    continuation.yield(ByteBuffer(bytes: body[..<half]))
                                    if !complete { for await _ in gate {} }
                                    continuation.yield(ByteBuffer(bytes: body[half...]))
                                    continuation.finish()
                                }
                            }
                            var request = HTTPClientRequest(
                                url: cluster.url(
                                    fixedTargets[index].path, token: fixedTargets[index].token, host: 0,
                                    suffix: "/contents"))
                            request.method = .POST
                            request.headers.add(name: "X-WOPI-Override", value: "PUT")
                            request.headers.add(name: "X-WOPI-Lock", value: "crash-\(index)")
                            request.body = .stream(stream, length: .known(Int64(body.count)))
                            var status: Int?
                            do {
                                let response = try await TestHTTP.client.execute(request, timeout: .seconds(60))
                                _ = try await response.body.collect(upTo: 1 << 20)
                                status = Int(response.status.code)
                            } catch {
                                status = nil
                            }
                            if complete { answered.continuation.yield() }
                            return (index, status)
                        }
                    }
                    var statuses: [Int: Int?] = [:]
                    for try await (index, status) in group { statuses[index] = status }
                    return statuses
                }
            }

            // Kill once the host stored part of all four held uploads (their versions are still 'writing').
            let deadline = ContinuousClock.now + .seconds(60)
            while try await watcher.values(
                "count unfinished uploads", Int64.self,
                """
                SELECT count(DISTINCT v.id) FROM file_versions v JOIN chunk_pieces c ON c.version_id = v.id
                WHERE v.state = 'writing'
                """
            ).first ?? 0 < Int64(Self.files / 2) {
                try #require(ContinuousClock.now < deadline, "the held uploads never reached the database")
                try await Task.sleep(for: .milliseconds(20))
            }
            // The whole uploads are answered before the kill.
            var answers = 0
            for await _ in answered.stream {
                answers += 1
                if answers == Self.files / 2 { break }
            }
            await cluster.hosts[0].stop(signal: SIGKILL)
            for gate in gates { gate.continuation.finish() }
            let statuses = try await uploads.value as [Int: Int?]

            for index in 0..<Self.files {
                let acknowledged = statuses[index] == 200
                #expect(
                    acknowledged == (index < Self.files / 2), "file \(index): \(String(describing: statuses[index]))")
                let reply = try await TestHTTP.send(
                    .GET,
                    cluster.url(
                        targets[index].path, token: targets[index].token, host: 1 + index % 2,
                        suffix: "/contents"))
                #expect(reply.status == 200)
                let expected = Self.content(index, generation: acknowledged ? 1 : 0)
                #expect(
                    reply.bytes == expected, "file \(index) is not the whole \(acknowledged ? "new" : "old") version")
                let lock = try await TestHTTP.send(
                    .POST, cluster.url(targets[index].path, token: targets[index].token, host: 2),
                    headers: [("X-WOPI-Override", "GET_LOCK")])
                #expect(lock.header("X-WOPI-Lock") == "crash-\(index)")
            }
        } catch {
            await watcher.shutdown()
            await cluster.stop()
            throw error
        }
        await watcher.shutdown()
        await cluster.stop()
    }
}
