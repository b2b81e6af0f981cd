import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension S3ObjectStore {
    /// One page of the objects whose keys start with `prefix` (ListObjectsV2), in key order: up to `maxKeys` (1000
    /// at most, S3's default) from `continuationToken` (the previous page's ``S3ListPage/nextContinuationToken``) or
    /// after `startAfter`. With a `delimiter` (`/`), keys that have it after the prefix are rolled up into
    /// ``S3ListPage/commonPrefixes``.
    ///
    /// Keys are asked for URL-encoded (`encoding-type=url`) and decoded, so any key lists as it was written.
    ///
    /// - Throws: ``S3Error`` (``S3Error/Code/noSuchBucket``, ...); ``S3Error/Code/invalidArgument`` when `maxKeys`
    ///   is not within 1 to 1000.
    public func listObjects(
        prefix: String? = nil, delimiter: String? = nil, continuationToken: String? = nil, startAfter: String? = nil,
        maxKeys: Int? = nil
    ) async throws -> S3ListPage {
        if let maxKeys, !(1...1000).contains(maxKeys) {
            throw S3Error(.invalidArgument, "A listing page has 1 to 1000 keys; \(maxKeys) was asked for.")
        }
        var request = S3Request(.listObjectsV2, .GET, key: nil, retry: .idempotent, timeout: configuration.timeout)
        request.query = [("list-type", "2"), ("encoding-type", "url")]
        if let prefix, !prefix.isEmpty { request.query.append(("prefix", prefix)) }
        if let delimiter, !delimiter.isEmpty { request.query.append(("delimiter", delimiter)) }
        if let continuationToken { request.query.append(("continuation-token", continuationToken)) }
        if let startAfter, !startAfter.isEmpty { request.query.append(("start-after", startAfter)) }
        if let maxKeys { request.query.append(("max-keys", String(maxKeys))) }
        return try await perform(request) { response in
            guard response.status.code == 200 else { throw await failure(for: response, request: request) }
            let root = try await Self.xml(response, operation: request.operation)
            return try Self.page(root)
        }
    }

    /// Every object whose key starts with `prefix`, page after page (`pageSize` keys a request) as the sequence is
    /// iterated.
    public func listAllObjects(prefix: String? = nil, pageSize: Int = 1000) -> S3ObjectListing {
        S3ObjectListing(store: self, prefix: prefix, pageSize: pageSize)
    }

    static func page(_ root: S3XMLElement) throws -> S3ListPage {
        guard root.name == "ListBucketResult" else {
            throw S3Error(.invalidResponse, "ListObjectsV2 answered with <\(root.name)>, not <ListBucketResult>.")
        }
        let encoded = root.text(of: "EncodingType") == "url"
        func key(_ text: String) -> String { encoded ? decode(text) : text }
        let objects = try root.children("Contents").map { contents in
            guard let name = contents.text(of: "Key"), let size = contents.text(of: "Size").flatMap({ Int64($0) })
            else { throw S3Error(.invalidResponse, "ListObjectsV2 listed an object without a key or size.") }
            return S3ListPage.Object(
                key: key(name), size: size, etag: contents.text(of: "ETag") ?? "",
                lastModified: contents.text(of: "LastModified").flatMap(S3Dates.iso8601))
        }
        let prefixes = root.children("CommonPrefixes").compactMap { $0.text(of: "Prefix").map(key) }
        let truncated = root.text(of: "IsTruncated") == "true"
        let token = truncated ? root.text(of: "NextContinuationToken") : nil
        if truncated && token == nil {
            throw S3Error(.invalidResponse, "ListObjectsV2 said the listing goes on but gave no continuation token.")
        }
        return S3ListPage(objects: objects, commonPrefixes: prefixes, nextContinuationToken: token)
    }

    /// A key as `encoding-type=url` lists it: `+` for a space, `%XX` for other bytes.
    static func decode(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
