import Foundation
import WOPIClusterTestSupport
import WOPITestSupport

extension ValidatorTarget {
    /// Like ``withHost(storage:extraArguments:_:)``, on a cluster: 3 `wopi-host serve` processes on one new
    /// PostgreSQL database behind nginx (``HostCluster/startBehindBalancer(_:)``), every host's `--public-url` the
    /// front's. The target's WOPISrc is on the front, so every request of the run goes through the balancer.
    /// `body` gets the cluster too, to read which host answered what.
    static func withCluster<T: Sendable>(
        extraArguments: [String] = [], _ body: @Sendable (ValidatorTarget, HostCluster) async throws -> T
    ) async throws -> T {
        let cluster = try await HostCluster.startBehindBalancer(3, extraArguments: extraArguments)
        do {
            try await cluster.importFile(testFilePath, content: Array("wopitest".utf8))
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
