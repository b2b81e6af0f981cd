import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `wopikit-bench`: streams large PutFiles and GetFiles through a real `wopi-host serve` and measures the host's
/// peak resident memory (`VmHWM`) and throughput, for each storage backend and size.
///
/// ```sh
/// swift build -c release --product wopi-host --product wopikit-bench
/// .build/release/wopikit-bench --storage sqlite --storage fs --size-mib 256 --size-mib 1024
/// .build/release/wopikit-bench --storage postgres --database postgres://wopi@127.0.0.1:5432/wopi
/// ```
///
/// `postgres` runs the host on `--database` (`wopi-host serve --database URL`), a database that may already hold
/// users and files (a running cluster's): the host seeds the demo user only when there are no users.
@main
struct WOPIKitBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wopikit-bench",
        abstract: "Measure wopi-host's peak RSS and throughput for large PutFile and GetFile requests (Linux).")

    @Option(name: .long, help: "Storage backends to measure (sqlite, fs, postgres); repeat for several.")
    var storage: [String] = ["sqlite", "fs"]
    @Option(name: .long, help: "The PostgreSQL database of the postgres storage (postgres://USER@HOST:PORT/DB).")
    var database: String?
    @Option(name: .long, help: "File sizes in MiB; repeat for several.")
    var sizeMib: [Int] = [256, 1024]
    @Option(name: .long, help: "The wopi-host executable (default: the one next to this benchmark).")
    var hostBinary: String?
    @Option(name: .long, help: "Bytes per chunk the client sends.")
    var chunkSize: Int = 256 * 1024
    @Option(name: .long, help: "Fail when the host's peak RSS passes this many MB (10^6 bytes) on a 1 GiB file.")
    var maxRssMb: Int = 150
    @Option(name: .long, help: "Only write the pattern file of each size into this directory, then exit.")
    var writePatterns: String?
    @Option(
        name: .long,
        help: "Also GET pattern-<N>MiB.bin of each size below this URL (a static server: the reference row).")
    var referenceUrl: String?
    @Option(name: .long, help: "Also write the results as JSON lines to this file.")
    var json: String?
    @Flag(
        name: .long,
        help: "Measure incremental transfer instead: PutChunkedFile/GetChunkedFile of a zip beside PutFile/GetFile.")
    var incremental = false

    func run() async throws {
        if let writePatterns {
            try await writePatternFiles(into: writePatterns)
            return
        }
        let executable =
            hostBinary.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("wopi-host")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchError("No wopi-host at \(executable.path); build it or pass --host-binary.")
        }
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(300))
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        if incremental {
            do {
                try await measureIncremental(executable: executable, http: http)
            } catch {
                try await http.shutdown()
                throw error
            }
            try await http.shutdown()
            return
        }
        var results: [BenchResult] = []
        do {
            if let referenceUrl { results += try await measureReference(baseURL: referenceUrl, http: http) }
            for storage in storage {
                for size in sizeMib {
                    let result = try await measure(
                        storage: storage, size: Int64(size) << 20, executable: executable, http: http)
                    print(result.cells.joined(separator: "  "))
                    results.append(result)
                }
            }
        } catch {
            try await http.shutdown()
            throw error
        }
        try await http.shutdown()
        let benchPeak = try ProcessMemory(pid: getpid()).peakResidentBytes()
        print(
            "\nwopi-host \(executable.path), chunk \(chunkSize) bytes; benchmark's own peak RSS "
                + BenchResult.mebibytes(benchPeak) + "\n")
        print(BenchResult.table(results))
        if let json { try Self.writeJSON(results, to: json) }
        let limit = Int64(maxRssMb) * 1_000_000
        let over = results.filter { $0.size >= 1 << 30 && $0.peakRSS > limit }
        if !over.isEmpty {
            throw BenchError("Peak RSS above \(maxRssMb) MB on: \(over.map { "\($0.storage) \($0.size >> 20) MiB" })")
        }
    }

    /// One run: a fresh host, Lock, PutFile of `size` bytes, GetFile of it (verified), Unlock.
    private func measure(storage: String, size: Int64, executable: URL, http: HTTPClient) async throws
        -> BenchResult
    {
        let host = try BenchHost(executable: executable, storage: storage, database: database)
        do {
            let result = try await measure(on: host, storage: storage, size: size, http: http)
            await host.stop()
            return result
        } catch {
            await host.stop()
            throw error
        }
    }

    private func measure(on host: BenchHost, storage: String, size: Int64, http: HTTPClient) async throws
        -> BenchResult
    {
        _ = try await host.waitUntilListening()
        let (wopiSrc, token) = try host.token(file: "Notes.txt")
        let fileURL = "\(wopiSrc)?access_token=\(token)"
        let contentsURL = "\(wopiSrc)/contents?access_token=\(token)"
        let memory = ProcessMemory(pid: host.pid)
        _ = try await send(http, .POST, fileURL, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "bench"], expect: 200)
        let idle = try memory.residentBytes()

        guard memory.resetPeak() else { throw BenchError("Cannot reset VmHWM of \(host.pid) (/proc/PID/clear_refs).") }
        var put = HTTPClientRequest(url: contentsURL)
        put.method = .POST
        put.headers.add(name: "X-WOPI-Override", value: "PUT")
        put.headers.add(name: "X-WOPI-Lock", value: "bench")
        put.body = .stream(PatternBody(size: size, chunkSize: chunkSize), length: .known(size))
        let putStart = ContinuousClock.now
        let putResponse = try await http.execute(put, timeout: .minutes(30))
        _ = try await putResponse.body.collect(upTo: 1 << 20)
        let putSeconds = Self.seconds(ContinuousClock.now - putStart)
        guard putResponse.status == .ok else { throw BenchError("PutFile answered \(putResponse.status)") }
        let putPeak = try memory.peakResidentBytes()

        guard memory.resetPeak() else { throw BenchError("Cannot reset VmHWM of \(host.pid).") }
        let getSeconds = try await timedGet(
            url: contentsURL, size: size, headers: ["X-WOPI-MaxExpectedSize": String(size)], http: http)
        let getPeak = try memory.peakResidentBytes()
        _ = try await send(http, .POST, fileURL, ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "bench"], expect: 200)
        return BenchResult(
            storage: storage, size: size, idleRSS: idle, putSeconds: putSeconds, putPeakRSS: putPeak,
            getSeconds: getSeconds, getPeakRSS: getPeak)
    }

    private func send(
        _ http: HTTPClient, _ method: HTTPMethod, _ url: String, _ headers: [String: String], expect: Int
    ) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await http.execute(request, timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status.code == expect else {
            throw BenchError("\(method) \(headers) answered \(response.status), expected \(expect)")
        }
        return response
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
