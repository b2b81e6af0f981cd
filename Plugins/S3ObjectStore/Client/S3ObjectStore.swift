public import AsyncHTTPClient
public import Logging
public import Metrics
import NIOCore

/// A client of one S3 bucket (AWS S3, Ceph's RADOS Gateway, MinIO, ...): objects written, read (whole or by byte
/// range), inspected, deleted one by one or in batches, listed, and uploaded in parts; each request signed with
/// AWS Signature Version 4, sent over AsyncHTTPClient, retried with backoff when that is safe, and logged, measured
/// and traced.
///
/// ```swift
/// let configuration = try S3ObjectStore.Configuration(
///     url: "s3://documents?endpoint=http://127.0.0.1:7480&addressing=path")   // credentials from AWS_* variables
/// try await S3ObjectStore.withObjectStore(configuration: configuration) { store in
///     try await store.putObject("a/b.txt", body: ByteBuffer(string: "hello"))
///     if let object = try await store.getObject("a/b.txt") {
///         for try await chunk in object.body { ... }
///     }
/// }
/// ```
///
/// Bodies stream both ways: a GET's body is an `AsyncSequence` of chunks read from the socket as it is iterated,
/// ``uploadObject(_:from:partSize:contentType:)`` sends a stream of any length in parts with one part in memory, and
/// ``putObject(_:body:length:contentType:condition:)`` sends a stream of known length in one request. Only the
/// small-body calls (``putObject(_:body:contentType:condition:)``, ``S3ObjectBody/collect(upTo:)``) hold a whole
/// body.
///
/// Observability: each operation is a client span `S3.<Operation>` (`S3.GetObject`) with the `rpc.*`, `aws.s3.*` and
/// `http.response.status_code` attributes; each attempt is logged at debug level (method, operation, key, status,
/// duration; never a signature, a secret or a token) and counted in the `wopi_s3_*` metrics.
public final class S3ObjectStore: Sendable {
    /// Where and how requests are sent.
    public let configuration: Configuration
    /// The HTTP client requests go through.
    public let httpClient: HTTPClient
    private let ownsClient: Bool
    let logger: Logger
    let metrics: S3Metrics
    let signer: SigV4Signer

    /// The HTTP client configuration a store that owns its client uses: redirects off (a redirect from S3 names
    /// another region, and a signed request cannot follow it), no response decompression (object bytes are returned
    /// as stored), a 3 s connect timeout (the client keeps trying to connect for that long, and a server it cannot
    /// reach in that time fails the request at once, Docs/object-storage.md) and a 60 s read timeout (a stalled
    /// transfer fails), TLS with the system's trust roots.
    public static var recommendedHTTPClientConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout = .init(connect: .seconds(3), read: .seconds(60))
        return configuration
    }

    /// A store that sends its requests through `httpClient`, which its owner shuts down. Give it a client made with
    /// ``recommendedHTTPClientConfiguration`` (or at least with redirects and decompression off).
    ///
    /// - Parameters:
    ///   - configuration: where and how requests are sent.
    ///   - httpClient: the client requests go through.
    ///   - logger: where requests are logged (at debug level; retries and failures at notice).
    ///   - metricsFactory: where metrics are recorded; the process's bootstrapped factory by default.
    public init(
        configuration: Configuration, httpClient: HTTPClient, logger: Logger = Logger(label: "wopikit.s3"),
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.ownsClient = false
        self.logger = logger
        self.metrics = S3Metrics(factory: metricsFactory)
        self.signer = SigV4Signer(
            credentials: configuration.credentials, region: configuration.region, service: "s3")
    }

    /// A store with an HTTP client of its own (``recommendedHTTPClientConfiguration``, on the shared event loop
    /// group); call ``shutdown()`` when done, or use ``withObjectStore(configuration:logger:metricsFactory:_:)``.
    public init(
        configuration: Configuration, logger: Logger = Logger(label: "wopikit.s3"),
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.configuration = configuration
        self.httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: Self.recommendedHTTPClientConfiguration)
        self.ownsClient = true
        self.logger = logger
        self.metrics = S3Metrics(factory: metricsFactory)
        self.signer = SigV4Signer(
            credentials: configuration.credentials, region: configuration.region, service: "s3")
    }

    /// Shuts the store's own HTTP client down; does nothing for a client passed to
    /// ``init(configuration:httpClient:logger:metricsFactory:)``.
    public func shutdown() async throws {
        if ownsClient { try await httpClient.shutdown() }
    }

    /// Runs `body` with a store that has its own HTTP client, shut down when `body` returns or throws.
    @discardableResult
    public static func withObjectStore<Result: Sendable>(
        configuration: Configuration, logger: Logger = Logger(label: "wopikit.s3"),
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        _ body: (S3ObjectStore) async throws -> Result
    ) async throws -> Result {
        let store = S3ObjectStore(configuration: configuration, logger: logger, metricsFactory: metricsFactory)
        let result: Result
        do {
            result = try await body(store)
        } catch {
            try? await store.shutdown()
            throw error
        }
        try await store.shutdown()
        return result
    }
}
