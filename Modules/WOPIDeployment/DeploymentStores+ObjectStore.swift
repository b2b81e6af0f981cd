import AsyncHTTPClient
import ChunkedVersionStore
import Foundation
import Logging
import S3ChunkBodies
public import S3ObjectStore

/// File content in an S3 bucket beside a SQLite or PostgreSQL database (`DeploymentStores.sqlite(directory:
/// versionRetention:objectStore:)`, `DeploymentStores.postgres(_:versionRetention:objectStore:)`): the database keeps
/// names, versions and the chunk index, the bucket keeps every chunk of at least 256 KiB as an object
/// (Docs/object-storage.md, "Running on object storage").
struct ObjectStoreContent: Sendable {
    /// The bucket's client.
    let store: S3ObjectStore

    /// The HTTP client of every bucket of the process (S3's settings: no redirects, no decompression), which lives
    /// as long as the process, as `HTTPClient.shared` does: a one-shot command has nothing to shut down.
    private static let httpClient = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: S3ObjectStore.recommendedHTTPClientConfiguration)

    /// A client of the bucket of `configuration`, which is created when missing.
    static func open(_ configuration: S3ObjectStore.Configuration) async throws -> ObjectStoreContent {
        let store = S3ObjectStore(
            configuration: configuration, httpClient: httpClient, logger: Logger(label: "wopikit.s3"))
        do {
            if try await !store.headBucket() { try await store.createBucket() }
        } catch {
            throw WOPIDeploymentError(
                "Could not reach bucket \(configuration.bucket) at \(configuration.endpoint.absoluteString): "
                    + "\(error). Check the endpoint, the region and the credentials.")
        }
        return ObjectStoreContent(store: store)
    }

    /// What makes the storage's chunk body store from its database's catalog.
    var bodies: (ChunkBodyCatalog) -> any ChunkBodyStore {
        { [store] catalog in S3ChunkBodies(store: store, catalog: catalog) }
    }

    /// `/readyz` includes the bucket.
    var readiness: ReadinessCheck { .bucket(store) }
}

extension ReadinessCheck {
    /// The bucket of `store` answers a `HEAD` and exists.
    public static func bucket(_ store: S3ObjectStore) -> ReadinessCheck {
        ReadinessCheck("bucket") {
            guard try await store.headBucket() else {
                throw ReadinessFailure("bucket \(store.configuration.bucket) does not exist")
            }
        }
    }
}
