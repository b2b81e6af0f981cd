import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension WOPIKitBench {
    /// The name of the pattern file of `size` bytes that `--write-patterns` writes and `--reference-url` reads.
    static func patternFileName(_ size: Int64) -> String { "pattern-\(size >> 20)MiB.bin" }

    /// Writes the pattern of each size into `directory`, for a static server (nginx) to serve as the reference.
    func writePatternFiles(into directory: String) async throws {
        for size in sizeMib.map({ Int64($0) << 20 }) {
            let path = directory + "/" + Self.patternFileName(size)
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else { throw BenchError("Cannot create \(path); check the directory.") }
            for await chunk in PatternBody(size: size, chunkSize: 1 << 20) {
                try chunk.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
            }
            try handle.close()
            print("wrote \(path)")
        }
    }

    /// GetFile's figures for a static server: a plain `GET` of each pattern file below `baseURL`, read and
    /// verified exactly as a GetFile from `wopi-host` is, so the two rates compare.
    func measureReference(baseURL: String, http: HTTPClient) async throws -> [BenchResult] {
        var results: [BenchResult] = []
        for size in sizeMib.map({ Int64($0) << 20 }) {
            let seconds = try await timedGet(url: baseURL + "/" + Self.patternFileName(size), size: size, http: http)
            let result = BenchResult(
                storage: "reference", size: size, idleRSS: 0, putSeconds: .nan, putPeakRSS: 0, getSeconds: seconds,
                getPeakRSS: 0)
            print(result.cells.joined(separator: "  "))
            results.append(result)
        }
        return results
    }

    /// Downloads `url`, checks that it is the pattern of `size` bytes, and returns the seconds it took.
    func timedGet(url: String, size: Int64, headers: [String: String] = [:], http: HTTPClient) async throws
        -> Double
    {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let start = ContinuousClock.now
        let response = try await http.execute(request, timeout: .minutes(30))
        guard response.status == .ok else { throw BenchError("GET \(url) answered \(response.status)") }
        var verifier = PatternVerifier()
        for try await chunk in response.body { verifier.consume(chunk) }
        let seconds = Self.seconds(ContinuousClock.now - start)
        guard verifier.offset == size, verifier.mismatchedPages == 0 else {
            throw BenchError(
                "GET \(url) returned \(verifier.offset) of \(size) bytes with \(verifier.mismatchedPages) wrong pages")
        }
        return seconds
    }

    /// Writes `results` as JSON lines for `scripts/bench.py`: sizes in bytes, rates in MiB/s (`null` when not
    /// measured).
    static func writeJSON(_ results: [BenchResult], to path: String) throws {
        let lines = results.map { result -> String in
            func rate(_ seconds: Double) -> String {
                seconds.isNaN ? "null" : String(format: "%.1f", Double(result.size) / 1_048_576 / seconds)
            }
            return
                "{\"storage\":\"\(result.storage)\",\"size\":\(result.size),\"idleRSS\":\(result.idleRSS),"
                + "\"putMiBps\":\(rate(result.putSeconds)),\"putPeakRSS\":\(result.putPeakRSS),"
                + "\"getMiBps\":\(rate(result.getSeconds)),\"getPeakRSS\":\(result.getPeakRSS)}"
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }
}
