import Foundation
import NIOCore
import PostgresStorage
import WOPITestSupport

/// `wopi-host serve` processes on one PostgreSQL database, as a deployment of several hosts runs them: the first
/// seeds the demo user, then the others start; each has its own `--data` folder (nothing shared on disk).
final class HostCluster: Sendable {
    let server: PostgresServer
    let databaseURL: String
    let folders: [TemporaryDirectory]
    let hosts: [HostProcess]
    /// Each host's base URL.
    let bases: [String]

    private init(
        server: PostgresServer, databaseURL: String, folders: [TemporaryDirectory], hosts: [HostProcess],
        bases: [String]
    ) {
        self.server = server
        self.databaseURL = databaseURL
        self.folders = folders
        self.hosts = hosts
        self.bases = bases
    }

    /// Starts `count` hosts on a new database of `server`.
    static func start(_ count: Int, on server: PostgresServer? = nil) async throws -> HostCluster {
        let server = if let server { server } else { try await PostgresServer.shared.value }
        let databaseURL = server.url(try await server.makeDatabase())
        var folders: [TemporaryDirectory] = []
        var hosts: [HostProcess] = []
        var bases: [String] = []
        for index in 0..<count {
            let folder = try TemporaryDirectory()
            let host = try HostProcess(
                executable: HostProcess.executable,
                arguments: ["serve"] + (index == 0 ? ["--demo"] : []) + [
                    "--data", folder.url.path, "--database", databaseURL, "--port", "0", "--log-level", "warning",
                ],
                dataDirectory: folder.url)
            folders.append(folder)
            hosts.append(host)
            bases.append(try await host.waitUntilListening())
        }
        return HostCluster(server: server, databaseURL: databaseURL, folders: folders, hosts: hosts, bases: bases)
    }

    /// Stops every host still running and removes their folders.
    func stop() async {
        for host in hosts { await host.stop() }
        for folder in folders { folder.remove() }
    }

    /// Imports `content` as `name` for the demo user (through the database, from any host's folder).
    func importFile(_ name: String, content: [UInt8]) async throws {
        let local = folders[0].appending("import-\(name)")
        try Data(content).write(to: local)
        _ = try await HostProcess.run(
            [
                "import", "--data", folders[0].url.path, "--database", databaseURL, "--user", "demo", "--overwrite",
                local.path, name,
            ])
    }

    /// A WOPI access token for the demo user's file `name`, valid on every host, and the file's path
    /// (`/wopi/files/ID`), to put after any host's base URL.
    func token(for name: String) async throws -> (path: String, token: String) {
        let json = try await HostProcess.run(
            [
                "token", "--data", folders[0].url.path, "--database", databaseURL, "--user", "demo", "--file", name,
                "--public-url", bases[0],
            ])
        let minted = try JSONDecoder().decode(MintedToken.self, from: Data(json.utf8))
        guard let url = URL(string: minted.wopiSrc) else { throw HostProcessError("Bad WOPISrc \(minted.wopiSrc)") }
        return (url.path, minted.accessToken)
    }

    /// The URL of `path` on host `index` with the access token.
    func url(_ path: String, token: String, host index: Int, suffix: String = "") -> String {
        "\(bases[index % bases.count])\(path)\(suffix)?access_token=\(token)"
    }
}
