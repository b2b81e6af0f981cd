import AsyncHTTPClient
import NIOCore
import NIOHTTP1

extension S3ObjectStore {
    /// Creates the configured bucket (in the configured region: outside `us-east-1` the request names it as the
    /// `LocationConstraint`).
    ///
    /// - Returns: ``S3BucketCreation/created``, or ``S3BucketCreation/alreadyOwned`` when this account has it already
    ///   (AWS outside `us-east-1`; AWS in `us-east-1` and Ceph's RADOS Gateway answer `200`, so ``S3BucketCreation/created``).
    /// - Throws: ``S3Error``: ``S3Error/Code/bucketAlreadyExists`` when another account has the name, ...
    @discardableResult
    public func createBucket() async throws -> S3BucketCreation {
        var request = S3Request(.createBucket, .PUT, key: nil, retry: .idempotent, timeout: configuration.timeout)
        if configuration.region != "us-east-1" {
            var xml = S3XMLWriter()
            xml.open("CreateBucketConfiguration", namespaced: true)
            xml.element("LocationConstraint", configuration.region)
            xml.close("CreateBucketConfiguration")
            request.body = .bytes(ByteBuffer(string: xml.text))
            request.headers.append(("content-type", "application/xml"))
        }
        return try await perform(request) { response in
            switch response.status.code {
            case 200..<300:
                _ = try? await response.body.collect(upTo: 64 << 10)
                return .created
            default:
                let error = await failure(for: response, request: request)
                guard error.s3Code == "BucketAlreadyOwnedByYou" else { throw error }
                return .alreadyOwned
            }
        }
    }

    /// Whether the configured bucket exists and these credentials may use it (a HEAD of the bucket).
    ///
    /// - Returns: `true` when it does, `false` when there is no such bucket.
    /// - Throws: ``S3Error/Code/accessDenied`` when the bucket exists but is not this account's to use (or the
    ///   secret is wrong: a HEAD answer has no body to tell), ``S3Error/Code/wrongRegion``, ...
    public func headBucket() async throws -> Bool {
        let request = S3Request(.headBucket, .HEAD, key: nil, retry: .idempotent, timeout: configuration.timeout)
        return try await perform(request) { response in
            switch response.status.code {
            case 200: return true
            case 404: return false
            default: throw await failure(for: response, request: request)
            }
        }
    }
}
