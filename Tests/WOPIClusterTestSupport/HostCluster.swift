import Foundation
import NIOCore
import PostgresStorage
package import WOPITestSupport

/// `wopi-host serve` processes on one PostgreSQL database, as a deployment of several hosts runs them: the first
/// seeds the demo user, then the others start; each has its own `--data` folder (nothing shared on disk).
package final class HostCluster: Sendable {
    package let server: PostgresServer
    package let databaseURL: String
    package let folders: [TemporaryDirectory]
    package let hosts: [HostProcess]
    /// Each host's base URL.
    package let bases: [String]
    /// The nginx balancer in front, when started with ``startBehindBalancer(_:)``.
    package let front: BalancerFront?
    /// Where the commands of this cluster keep their stores: `--database` (and `--object-store`).
    package let storeArguments: [String]
    /// The URL the hosts put in WOPISrc and OAuth URLs: the front's, or the first host's.
    package var publicURL: String { front?.url ?? bases[0] }

    private init(
        server: PostgresServer, databaseURL: String, folders: [TemporaryDirectory], hosts: [HostProcess],
        bases: [String], front: BalancerFront?, storeArguments: [String]
    ) {
        self.storeArguments = storeArguments
        self.server = server
        self.databaseURL = databaseURL
        self.folders = folders
        self.hosts = hosts
        self.bases = bases
        self.front = front
    }

    /// Starts `count` hosts on a new database of `server`, with `serve`'s `extraArguments`.
    package static func start(
        _ count: Int, on server: PostgresServer? = nil, objectStore: String? = nil, extraArguments: [String] = []
    ) async throws -> HostCluster {
        try await start(count, on: server, frontPort: nil, objectStore: objectStore, extraArguments: extraArguments)
    }

    /// Starts `count` hosts on a new database of the shared server behind a ``BalancerFront`` (nginx,
    /// round-robin), every host with `--public-url` set to the front, so WOPISrc and OAuth URLs point there, and
    /// `serve`'s `extraArguments`, and the file content in `objectStore` (an `--object-store` URL) when given.
    package static func startBehindBalancer(
        _ count: Int, objectStore: String? = nil, extraArguments: [String] = []
    ) async throws -> HostCluster {
        try await start(
            count, on: nil, frontPort: try LoopbackPort.free(), objectStore: objectStore,
            extraArguments: extraArguments)
    }

    private static func start(
        _ count: Int, on server: PostgresServer?, frontPort: Int?, objectStore: String?, extraArguments: [String] = []
    ) async throws -> HostCluster {
        let server = if let server { server } else { try await PostgresServer.shared.value }
        let databaseURL = server.url(try await server.makeDatabase())
        let storeArguments = ["--database", databaseURL] + (objectStore.map { ["--object-store", $0] } ?? [])
        let publicURL = frontPort.map { ["--public-url", "http://127.0.0.1:\($0)"] } ?? []
        var folders: [TemporaryDirectory] = []
        var hosts: [HostProcess] = []
        var bases: [String] = []
        for index in 0..<count {
            let folder = try TemporaryDirectory()
            let host = try HostProcess(
                executable: HostProcess.executable,
                arguments: ["serve"] + (index == 0 ? ["--demo"] : []) + [
                    "--data", folder.url.path, "--port", "0", "--log-level", "warning",
                ] + storeArguments + publicURL + extraArguments,
                dataDirectory: folder.url)
            folders.append(folder)
            hosts.append(host)
            bases.append(try await host.waitUntilListening())
        }
        var front: BalancerFront?
        if let frontPort { front = try await BalancerFront.start(port: frontPort, hosts: bases) }
        return HostCluster(
            server: server, databaseURL: databaseURL, folders: folders, hosts: hosts, bases: bases, front: front,
            storeArguments: storeArguments)
    }

    /// Stops every host still running and removes their folders.
    package func stop() async {
        await front?.stop()
        for host in hosts { await host.stop() }
        for folder in folders { folder.remove() }
    }

    /// Imports `content` as `name` (a path below the demo user's root) for the demo user (through the database,
    /// from any host's folder).
    package func importFile(_ name: String, content: [UInt8]) async throws {
        let local = folders[0].appending("import-\(UUID().uuidString)")
        try Data(content).write(to: local)
        defer { try? FileManager.default.removeItem(at: local) }
        _ = try await HostProcess.run(
            [
                "import", "--data", folders[0].url.path, "--user", "demo", "--overwrite", local.path, name,
            ] + storeArguments)
    }

    /// What `wopi-host token` mints for the demo user's file `name`: a WOPISrc on ``publicURL`` and an access
    /// token valid on every host.
    package func mint(for name: String) async throws -> MintedToken {
        let json = try await HostProcess.run(
            [
                "token", "--data", folders[0].url.path, "--user", "demo", "--file", name, "--public-url", publicURL,
            ] + storeArguments)
        return try JSONDecoder().decode(MintedToken.self, from: Data(json.utf8))
    }

    /// A WOPI access token for the demo user's file `name`, valid on every host, and the file's path
    /// (`/wopi/files/ID`), to put after any host's base URL.
    package func token(for name: String) async throws -> (path: String, token: String) {
        let minted = try await mint(for: name)
        guard let url = URL(string: minted.wopiSrc) else { throw HostProcessError("Bad WOPISrc \(minted.wopiSrc)") }
        return (url.path, minted.accessToken)
    }

    /// The URL of `path` on host `index` with the access token.
    package func url(_ path: String, token: String, host index: Int, suffix: String = "") -> String {
        "\(bases[index % bases.count])\(path)\(suffix)?access_token=\(token)"
    }
}
