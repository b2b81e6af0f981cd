import CMallocCounter
import Crypto
import Foundation
import HTTPTypes
import NIOCore
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage

/// The heap allocations of one CheckFileInfo, the request Office repeats most, on the example host's default
/// stores (SQLite): from the parsed request head to the encoded JSON answer, on every thread of the process.
///
/// Runs in a `swift test` process of its own (`make test` does so): the counter sees the whole process, and
/// tests running beside it would add their allocations.
@Suite(.serialized) struct CheckFileInfoAllocationTests {
    /// Allocations per CheckFileInfo measured when this test was written (debug build, Linux x86_64); see
    /// Docs/benchmarks.md. The test fails when the count doubles; lower this figure when the path gets cheaper.
    static let measured = 78

    @Test func checkFileInfoAllocationsDoNotDouble() async throws {
        let fixture = try await SQLiteHostFixture()
        defer { fixture.remove() }
        let file = try await fixture.storage.createFile(
            named: "Budget.xlsx", in: fixture.root.id, content: ByteStream(chunks: [ByteBuffer(string: "1234")]),
            overwrite: false)
        let host = fixture.host
        let head = fixture.get("/wopi/files/\(file.id)", for: .file(file.id))

        /// Runs `count` CheckFileInfos one after the other; returns how many did not answer 200.
        func run(_ count: Int) async -> Int {
            var failures = 0
            for _ in 0..<count where await host.handle(WOPIRequest(head: head)).status != .ok { failures += 1 }
            return failures
        }
        // Warm-up: reader connections opened, statements prepared, lazy globals built.
        #expect(await run(20) == 0)
        let requests = 50
        var perRequest = Int.max
        // The least of five rounds: a stray allocation elsewhere in the process only ever adds.
        for _ in 0..<5 {
            wopikit_malloc_counter_start()
            let failures = await run(requests)
            let allocations = wopikit_malloc_counter_stop()
            #expect(failures == 0)
            try #require(allocations >= 0, "This build cannot count allocations.")
            perRequest = min(perRequest, allocations / requests)
        }
        #expect(perRequest > 10, "The counter saw almost no allocations: it is not interposed.")
        #expect(
            perRequest <= 2 * Self.measured,
            "CheckFileInfo now allocates \(perRequest) times per request, more than twice the \(Self.measured) measured; find the new allocations (Docs/benchmarks.md) or, if intended, raise the figure."
        )
        print("CheckFileInfo allocations per request: \(perRequest)")
    }
}
