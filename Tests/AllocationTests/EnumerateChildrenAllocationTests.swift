import CMallocCounter
import Foundation
import HTTPTypes
import NIOCore
import SQLiteStorage
import Testing
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The heap allocations and CPU time of an EnumerateChildren of 1,000 files on SQLite, from the parsed request head to
/// the last byte of the streamed JSON answer. Part of the serialized `CheckFileInfoAllocationTests`: the counter sees
/// the whole process, so no other test may run beside it.
extension CheckFileInfoAllocationTests {
    /// Allocations per listing of 1,000 files measured when this test was written (debug build, Linux x86_64); see
    /// Docs/benchmarks.md. The test fails when the count doubles; lower this figure when the path gets cheaper.
    static let measuredPerListing = 21_400

    @Test func aListingOfAThousandFilesStaysWithinItsAllocations() async throws {
        let fixture = try await SQLiteHostFixture()
        defer { fixture.remove() }
        for index in 0..<1_000 {
            _ = try await fixture.storage.createFile(
                named: "Report \(index).docx", in: fixture.root.id, content: .empty, overwrite: false)
        }
        let host = fixture.host
        let head = fixture.get("/wopi/containers/\(fixture.root.id)/children", for: .container(fixture.root.id))

        /// Runs `count` listings one after the other, reading each body to its end; returns the bytes of the last.
        func run(_ count: Int) async throws -> Int {
            var bytes = 0
            for _ in 0..<count {
                let response = await host.handle(WOPIRequest(head: head))
                try #require(response.status == .ok)
                bytes = 0
                switch response.body {
                case .buffer(let buffer): bytes = buffer.readableBytes
                case .stream(let stream): for try await chunk in stream { bytes += chunk.readableBytes }
                case .empty: break
                }
            }
            return bytes
        }
        #expect(try await run(3) > 1_000 * 100)
        var perListing = Int.max
        var cpu = Duration.seconds(3600)
        for _ in 0..<3 {
            let started = Self.processCPUTime()
            wopikit_malloc_counter_start()
            _ = try await run(5)
            let allocations = wopikit_malloc_counter_stop()
            cpu = min(cpu, (Self.processCPUTime() - started) / 5)
            try #require(allocations >= 0, "This build cannot count allocations.")
            perListing = min(perListing, allocations / 5)
        }
        #expect(perListing > 1_000, "The counter saw almost no allocations: it is not interposed.")
        #expect(
            perListing <= 2 * Self.measuredPerListing,
            "A listing of 1,000 files now allocates \(perListing) times, more than twice the \(Self.measuredPerListing) measured; find the new allocations (Docs/benchmarks.md) or, if intended, raise the figure."
        )
        print("EnumerateChildren of 1,000 files: \(perListing) allocations, \(cpu) process CPU per listing")
    }

    /// The CPU time of every thread of the process so far.
    static func processCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
