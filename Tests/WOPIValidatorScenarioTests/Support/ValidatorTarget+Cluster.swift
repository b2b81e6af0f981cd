import Foundation
import WOPIClusterTestSupport
import WOPITestSupport

extension ValidatorTarget {
    /// Like ``withHost(storage:extraArguments:_:)``, on a cluster: `hosts` `wopi-host serve` processes on one new
    /// PostgreSQL database behind nginx (``HostCluster/startBehindBalancer(_:objectStore:extraArguments:)``), every
    /// host's `--public-url` the front's, their file content in `objectStore` when given. The target's WOPISrc is on
    /// the front, so every request of the run goes through the balancer. The test file starts as `seed`. `body` gets
    /// the cluster too, to read which host answered what.
    static func withCluster<T: Sendable>(
        hosts: Int = 3, objectStore: String? = nil, seed: [UInt8] = Array("wopitest".utf8),
        extraArguments: [String] = [], _ body: @Sendable (ValidatorTarget, HostCluster) async throws -> T
    ) async throws -> T {
        let cluster = try await HostCluster.startBehindBalancer(
            hosts, objectStore: objectStore, extraArguments: extraArguments)
        do {
            try await cluster.importFile(testFilePath, content: seed)
            let token = try await cluster.mint(for: testFilePath)
            let target = ValidatorTarget(
                wopiSrc: token.wopiSrc, accessToken: token.accessToken, accessTokenTTL: token.accessTokenTTL)
            let result = try await body(target, cluster)
            await cluster.stop()
            return result
        } catch {
            await cluster.stop()
            throw error
        }
    }
}
