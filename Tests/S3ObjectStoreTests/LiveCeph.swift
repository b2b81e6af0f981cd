import Foundation
import Logging
import Metrics
import S3ObjectStore
import WOPIClusterTestSupport

/// The live tests' access to the Ceph cluster of the test process (``CephGateway``): a store on a new bucket of its
/// own for each test.
enum LiveCeph {
    /// Test logs stay at warning level.
    static let logger: Logger = {
        var logger = Logger(label: "s3-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// The credentials of the gateway's user.
    static func credentials(_ gateway: CephGateway) -> S3Credentials {
        S3Credentials(accessKeyID: gateway.accessKeyID, secretAccessKey: gateway.secretAccessKey)
    }

    /// A bucket name no other test uses.
    static func bucketName(_ purpose: String) -> String {
        "t-\(purpose)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// A configuration of the gateway for `bucket`; `change` adjusts it.
    static func configuration(
        _ gateway: CephGateway, bucket: String, change: (inout S3ObjectStore.Configuration) -> Void = { _ in }
    ) throws -> S3ObjectStore.Configuration {
        var configuration = try S3ObjectStore.Configuration(
            endpoint: gateway.endpoint, region: gateway.region, bucket: bucket, addressing: .path,
            credentials: credentials(gateway))
        change(&configuration)
        return configuration
    }

    /// Runs `body` with a store on a new, created bucket.
    static func withBucket<Result: Sendable>(
        _ purpose: String, metrics: (any MetricsFactory)? = nil,
        change: (inout S3ObjectStore.Configuration) -> Void = { _ in },
        _ body: (S3ObjectStore) async throws -> Result
    ) async throws -> Result {
        let gateway = try await CephGateway.shared.value
        let configuration = try configuration(gateway, bucket: bucketName(purpose), change: change)
        return try await S3ObjectStore.withObjectStore(
            configuration: configuration, logger: logger, metricsFactory: metrics ?? MetricsSystem.factory
        ) { store in
            try await store.createBucket()
            return try await body(store)
        }
    }
}
