import Foundation
import Testing
import WOPITestSupport

/// `wopi put` and `wopi get` against `wopi-host serve` without `--coauthoring`, on its default SQLite storage:
/// incremental transfer is offered to WOPIKit's own client alone, so an edit of one part of a document moves only
/// that part. Measured at the socket: the client reaches the host through a ``CountingProxy``.
@Suite struct OwnClientIncrementalCLITests {
    @Test("wopi put of a one-part edit to a 10 MiB .docx against serve without --coauthoring sends at most 5%")
    func onePartEditWithoutCoauthoring() async throws {
        try await ProxiedCLIHost.with { stack in try await Self.editOnePart(stack) }
    }

    static func editOnePart(_ stack: ProxiedCLIHost) async throws {
        let (directory, proxy) = (stack.directory, stack.proxy)
        func wopi(_ arguments: [String], cache: String = "cache") async throws -> WopiProcess.Result {
            try await stack.wopi(arguments, cache: cache)
        }
        let original = directory.appending("original.docx")
        let edited = directory.appending("edited.docx")
        try TestZip.write(original.path, text: "<p>first</p>", media: 10)
        try TestZip.write(edited.path, text: "<p>first, edited</p>", media: 10)
        let size = Int64(try Data(contentsOf: edited).count)
        let created = try await wopi(["put", original.path, "Report.docx"])
        try #require(created.status == 0, "\(created.error)")

        let before = proxy.counts
        let put = try await wopi(["put", edited.path, "Report.docx"])
        let used = proxy.counts.since(before)
        try #require(put.status == 0, "\(put.error)")
        print("OwnClientIncrementalCLITests: put of a one-part edit to \(size) bytes: sent \(used.sent)")
        #expect(used.sent <= size / 20, "sent \(used.sent) bytes of \(size)")
        #expect(!put.output.contains("whole file") && !put.error.contains("whole file"), "\(put.output)")

        // Another client (a cache of its own) reads the host's bytes: the edit, whole.
        let fetched = directory.appending("fetched.docx")
        try #require(try await wopi(["get", "Report.docx", fetched.path], cache: "other").status == 0)
        #expect(try Data(contentsOf: fetched) == Data(contentsOf: edited))
    }
}
