import Foundation
import NIOCore
import S3ObjectStore
import Testing

@Suite("S3ObjectStore on Ceph's RADOS Gateway: listings and batch deletes")
struct LiveListingTests {
    @Test("1005 keys: two pages of ListObjectsV2, the whole listing, and a batch delete of two requests")
    func listingPastOneThousandKeys() async throws {
        try await LiveCeph.withBucket("list") { store in
            let keys = (0..<1005).map { "many/\(String(format: "%04d", $0))" }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for slice in stride(from: 0, to: keys.count, by: 126).map({ keys[$0..<min($0 + 126, keys.count)] }) {
                    group.addTask {
                        for key in slice { try await store.putObject(key, body: ByteBuffer(string: key)) }
                    }
                }
                try await group.waitForAll()
            }
            try await store.putObject("other", body: ByteBuffer(string: "x"))
            let first = try await store.listObjects(prefix: "many/")
            #expect(first.objects.count == 1000)
            let token = try #require(first.nextContinuationToken)
            let second = try await store.listObjects(prefix: "many/", continuationToken: token)
            #expect(second.objects.map(\.key) == Array(keys[1000...]))
            #expect(second.nextContinuationToken == nil)
            #expect(first.objects.map(\.key) + second.objects.map(\.key) == keys)
            #expect(first.objects.allSatisfy { $0.size == 9 && $0.etag.hasPrefix("\"") && $0.lastModified != nil })

            var listed: [String] = []
            for try await object in store.listAllObjects(prefix: "many/", pageSize: 300) { listed.append(object.key) }
            #expect(listed == keys)

            let failures = try await store.deleteObjects(keys + ["many/never-written"])
            #expect(failures.isEmpty)
            #expect(try await store.listObjects(prefix: "many/").objects.isEmpty)
            #expect(try await store.listObjects().objects.map(\.key) == ["other"])
        }
    }

    @Test("small pages with a continuation token, a delimiter, start-after, and keys XML and URLs find awkward")
    func pagesPrefixesAndAwkwardKeys() async throws {
        try await LiveCeph.withBucket("keys") { store in
            let keys = [
                "a b/1", "a+b/2", "a%20b/3", "ключ/4", "x&y<z>'\"/5", "tab\there/6", "top.txt", "~tilde", "日本/語",
            ].sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for key in keys { try await store.putObject(key, body: ByteBuffer(string: key)) }
            var listed: [String] = []
            var token: String?
            var pages = 0
            repeat {
                let page = try await store.listObjects(continuationToken: token, maxKeys: 2)
                #expect(page.objects.count <= 2)
                listed += page.objects.map(\.key)
                token = page.nextContinuationToken
                pages += 1
            } while token != nil
            #expect(listed == keys)
            #expect(pages == 5)
            for key in keys {
                let object = try #require(try await store.getObject(key), "\(key)")
                #expect(String(buffer: try await object.body.collect(upTo: 100)) == key)
            }
            let rolledUp = try await store.listObjects(delimiter: "/")
            #expect(rolledUp.objects.map(\.key) == ["top.txt", "~tilde"])
            #expect(rolledUp.commonPrefixes == ["a b/", "a%20b/", "a+b/", "tab\there/", "x&y<z>'\"/", "ключ/", "日本/"])
            let after = try await store.listObjects(startAfter: "top.txt")
            #expect(
                after.objects.map(\.key)
                    == keys.filter {
                        Array($0.utf8).lexicographicallyPrecedes(Array("top.txt".utf8)) == false && $0 != "top.txt"
                    })
            #expect(try await store.deleteObjects(keys).isEmpty)
        }
    }

    @Test("a key XML cannot carry is refused before anything is sent")
    func unrepresentableKey() async throws {
        try await LiveCeph.withBucket("xmlkey") { store in
            let error = await #expect(throws: S3Error.self) { _ = try await store.deleteObjects(["bell\u{07}"]) }
            #expect(error?.code == .invalidArgument)
            await #expect(throws: S3Error.self) { _ = try await store.listObjects(maxKeys: 0) }
        }
    }
}
