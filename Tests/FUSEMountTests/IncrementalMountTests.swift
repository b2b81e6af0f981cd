import Foundation
import Testing
import WOPITestSupport

extension RealMountTests {
    /// The mount's saves and reads through CSPP Plus incremental transfer against `wopi-host serve --coauthoring`,
    /// measured at the socket: every client reaches the host through a ``CountingProxy``.
    @Suite struct IncrementalMountTests {
        @Test(
            "an edit of one entry of a 6 MiB zip through the mount sends a small fraction; a read fetches only changes")
        func editOfOneEntryThroughTheMount() async throws {
            try await Self.withIncrementalMount { stack, proxy in try await Self.editAndRead(stack, proxy) }
        }

        @Test("an editor's save by rename costs one upload of the new file, not three whole transfers")
        func saveByRenameGoesThroughALocalCopy() async throws {
            try await Self.withIncrementalMount { stack, proxy in
                let original = stack.directory.appending("original.pptx")
                let edited = stack.directory.appending("edited.pptx")
                try TestZip.write(original.path, text: "<p>first</p>", media: 6)
                try TestZip.write(edited.path, text: "<p>first, edited</p>", media: 6)
                let size = Int64(try Data(contentsOf: edited).count)
                try #require(try await stack.shell("cp '\(original.path)' \"$M/Deck.pptx\"").status == 0)
                let before = proxy.counts
                // The editor writes a temporary file and renames it over the document (a WOPI host cannot rename
                // over, so the mount writes the temporary file's content into the document and deletes it).
                let save = try await stack.shell(
                    "cp '\(edited.path)' \"$M/.Deck.pptx.tmp\" && mv \"$M/.Deck.pptx.tmp\" \"$M/Deck.pptx\"")
                let used = proxy.counts.since(before)
                try #require(save.status == 0, "\(save.error)")
                print(
                    "IncrementalMountTests: save by rename of \(size) bytes: sent \(used.sent), received \(used.received)"
                )
                // The temporary file is new to the host and goes whole; reading it back and writing it into the
                // document move only what the chunk cache and the host lack.
                #expect(used.sent < size + size / 10, "\(used)")
                #expect(used.received < size / 20, "\(used)")
                let fetched = stack.directory.appending("fetched.pptx")
                #expect(try await stack.wopi("get", "Deck.pptx", fetched.path).status == 0)
                #expect(try Data(contentsOf: fetched) == Data(contentsOf: edited))
            }
        }

        /// Runs `body` with a mount of a `serve --coauthoring` host that incremental transfer is on for, every
        /// client reaching the host through a new counting proxy; stops both afterwards, failed or not.
        static func withIncrementalMount(
            _ body: (RemoteMountTests.Stack, CountingProxy) async throws -> Void
        ) async throws {
            let proxy = try await CountingProxy.start()
            let stack = try await RemoteMountTests.Stack.start(incremental: true, proxy: proxy)
            do {
                try await body(stack, proxy)
            } catch {
                await stack.stop()
                await proxy.stop()
                throw error
            }
            await stack.stop()
            await proxy.stop()
        }

        static func editAndRead(_ stack: RemoteMountTests.Stack, _ proxy: CountingProxy) async throws {
            let original = stack.directory.appending("original.pptx")
            let edited = stack.directory.appending("edited.pptx")
            try TestZip.write(original.path, text: "<p>first</p>", media: 6)
            try TestZip.write(edited.path, text: "<p>first, edited</p>", media: 6)
            let size = Int64(try Data(contentsOf: edited).count)
            let copy = try await stack.shell("cp '\(original.path)' \"$M/Deck.pptx\"")
            try #require(copy.status == 0, "\(copy.error)")

            // A program rewrites the file through the mount; one entry differs.
            let beforeSave = proxy.counts
            let save = try await stack.shell("cat '\(edited.path)' > \"$M/Deck.pptx\"")
            let saved = proxy.counts.since(beforeSave)
            try #require(save.status == 0, "\(save.error)")
            print("IncrementalMountTests: save of \(size) bytes: sent \(saved.sent), received \(saved.received)")
            #expect(saved.sent < size / 20, "sent \(saved.sent) bytes of \(size)")
            #expect(saved.total < size / 10, "\(saved)")
            let fetched = stack.directory.appending("fetched.pptx")
            #expect(try await stack.wopi("get", "Deck.pptx", fetched.path).status == 0)
            #expect(try Data(contentsOf: fetched) == Data(contentsOf: edited), "the host has the local bytes")

            // Another client, with a cache of its own, changes one entry; reading it through the mount fetches that.
            let theirs = stack.directory.appending("theirs.pptx")
            try TestZip.write(theirs.path, text: "<p>their, edited</p>", media: 6)
            let put = try await ChildProcess.run(
                ChildProcess.built("wopi"), ["put", theirs.path, "Deck.pptx"],
                environment: stack.environment.merging(["XDG_CACHE_HOME": stack.directory.appending("theirs").path]) {
                    $1
                })
            try #require(put.status == 0, "\(put.error)")
            let readBack = stack.directory.appending("read.pptx")
            let beforeRead = proxy.counts
            let read = try await stack.shell("cat \"$M/Deck.pptx\" > '\(readBack.path)'")
            let fetchedByRead = proxy.counts.since(beforeRead)
            try #require(read.status == 0, "\(read.error)")
            print("IncrementalMountTests: read of \(size) bytes: received \(fetchedByRead.received)")
            #expect(try Data(contentsOf: readBack) == Data(contentsOf: theirs))
            #expect(fetchedByRead.received < size / 20, "received \(fetchedByRead.received) bytes of \(size)")
        }
    }
}
