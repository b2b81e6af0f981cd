import AsyncHTTPClient
import NIOCore
import NIOHTTP1

extension S3ObjectStore {
    /// Deletes object `key`; deleting an object that does not exist succeeds.
    ///
    /// - Throws: ``S3Error`` (``S3Error/Code/noSuchBucket`` when the bucket is missing).
    public func deleteObject(_ key: String) async throws {
        try Self.validate(key: key)
        let request = S3Request(.deleteObject, .DELETE, key: key, retry: .idempotent, timeout: configuration.timeout)
        try await perform(request) { response in
            switch response.status.code {
            case 200..<300:
                _ = try? await response.body.collect(upTo: 64 << 10)
            case 404:
                let error = await failure(for: response, request: request)
                guard error.code == .noSuchKey else { throw error }
            default:
                throw await failure(for: response, request: request)
            }
        }
    }
}
