public import Foundation

extension S3ObjectStore {
    /// Where an ``S3ObjectStore`` sends its requests and how: the endpoint, region and bucket, the addressing style,
    /// the credentials, the retries and the timeouts; every tuning value has a production default.
    ///
    /// ```swift
    /// let configuration = try S3ObjectStore.Configuration(
    ///     endpoint: URL(string: "http://127.0.0.1:7480")!, region: "us-east-1", bucket: "documents",
    ///     addressing: .path, credentials: .fromEnvironment())
    /// // or, from one string (credentials from the environment):
    /// let parsed = try S3ObjectStore.Configuration(url: "s3://documents?endpoint=http://127.0.0.1:7480&addressing=path")
    /// ```
    ///
    /// Its `description` never shows the secret key (``S3Credentials``).
    public struct Configuration: Sendable, CustomStringConvertible {
        /// The server's base URL, `http` or `https`, with an optional port and no path (`https://s3.amazonaws.com`).
        public var endpoint: URL
        /// The region requests are signed for (`us-east-1`; Ceph accepts any region, and `default` is its own).
        public var region: String
        /// The bucket every operation works in.
        public var bucket: String
        /// Path or virtual-host addressing.
        public var addressing: S3Addressing
        /// The access key requests are signed with.
        public var credentials: S3Credentials
        /// When failed requests are sent again. Default ``S3RetryPolicy/init(maxAttempts:baseDelay:maxDelay:sleep:random:)``.
        public var retry: S3RetryPolicy
        /// How long a request without an object body (HEAD, DELETE, a listing, a bucket operation, multipart
        /// bookkeeping) may take, each attempt. Default 30 s.
        public var timeout: Duration
        /// How long a request that moves an object's content (PUT, GET, a part upload) may take, the whole body
        /// included. Default 1 hour; the HTTP client's read timeout already fails a transfer that stalls.
        public var transferTimeout: Duration
        /// The clock requests are signed with; tests inject a fixed one. Keep the machine's clock in sync (NTP):
        /// S3 refuses requests signed more than 15 minutes off.
        public var now: @Sendable () -> Date

        /// A configuration; `credentials` is required, everything else but the endpoint and bucket has a default.
        ///
        /// - Throws: ``S3Error/Code/invalidConfiguration`` when the endpoint is not an `http`/`https` URL with a
        ///   host and no path, query or user, or the bucket name cannot be used with `addressing`.
        public init(
            endpoint: URL, region: String = "us-east-1", bucket: String, addressing: S3Addressing = .path,
            credentials: S3Credentials, retry: S3RetryPolicy = S3RetryPolicy(), timeout: Duration = .seconds(30),
            transferTimeout: Duration = .seconds(3600), now: @escaping @Sendable () -> Date = { Date() }
        ) throws(S3Error) {
            try Self.validate(endpoint: endpoint)
            try Self.validate(bucket: bucket, addressing: addressing)
            guard !region.isEmpty, region.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else {
                throw S3Error(
                    .invalidConfiguration,
                    "The S3 region \"\(region)\" is not a region name: use letters, digits and dashes (us-east-1).")
            }
            self.endpoint = endpoint
            self.region = region
            self.bucket = bucket
            self.addressing = addressing
            self.credentials = credentials
            self.retry = retry
            self.timeout = timeout
            self.transferTimeout = transferTimeout
            self.now = now
        }

        public var description: String {
            "S3ObjectStore.Configuration(endpoint: \(endpoint.absoluteString), region: \(region), bucket: \(bucket), "
                + "addressing: \(addressing.rawValue), credentials: \(credentials))"
        }

        private static func validate(endpoint: URL) throws(S3Error) {
            guard let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw S3Error(
                    .invalidConfiguration,
                    "The S3 endpoint \(endpoint.absoluteString) is not an http or https URL (http://127.0.0.1:7480).")
            }
            guard let host = endpoint.host, !host.isEmpty else {
                throw S3Error(.invalidConfiguration, "The S3 endpoint \(endpoint.absoluteString) has no host.")
            }
            guard endpoint.user == nil, endpoint.password == nil else {
                throw S3Error(
                    .invalidConfiguration,
                    "The S3 endpoint has a user in its URL: give the credentials separately (AWS_ACCESS_KEY_ID, "
                        + "AWS_SECRET_ACCESS_KEY), never in the endpoint.")
            }
            guard endpoint.path.isEmpty || endpoint.path == "/", endpoint.query == nil, endpoint.fragment == nil else {
                throw S3Error(
                    .invalidConfiguration,
                    "The S3 endpoint \(endpoint.absoluteString) has a path or query: give the server's base URL only "
                        + "(scheme, host and port); the bucket is configured on its own.")
            }
        }

        private static func validate(bucket: String, addressing: S3Addressing) throws(S3Error) {
            guard !bucket.isEmpty, bucket.utf8.count <= 255,
                bucket.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) })
            else {
                throw S3Error(
                    .invalidConfiguration,
                    "The S3 bucket name \"\(bucket)\" is not valid: use 3 to 63 lower-case letters, digits, dots and "
                        + "dashes.")
            }
            guard addressing == .virtualHost else { return }
            let dnsCompatible =
                (3...63).contains(bucket.count)
                && bucket.allSatisfy { ($0.isLowercase && $0.isLetter) || $0.isNumber || $0 == "-" || $0 == "." }
                && !bucket.hasPrefix("-") && !bucket.hasSuffix("-") && !bucket.contains("..")
            guard dnsCompatible else {
                throw S3Error(
                    .invalidConfiguration,
                    "The bucket name \"\(bucket)\" cannot be a host name (virtual-host addressing): use 3 to 63 "
                        + "lower-case letters, digits, dots and dashes, or path addressing.")
            }
        }
    }
}
