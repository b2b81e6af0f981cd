import Foundation
import WOPITestSupport

/// `wopi-host serve` behind a ``CountingProxy`` (its `--public-url`), with the `wopi` tool signed in to it as the
/// demo user through a scripted browser: every byte between the tool and the host is counted at the socket.
struct ProxiedCLIHost: Sendable {
    /// The proxy every client reaches the host through.
    let proxy: CountingProxy
    /// The host process.
    let host: HostProcess
    /// The folder holding the host's data, the tool's configuration and its caches.
    let directory: TemporaryDirectory
    /// The tool's environment: its configuration, the `cache` chunk cache and the scripted browser.
    let environment: [String: String]

    /// Runs `body` with a host started with `extraArguments` and the tool signed in; stops both afterwards,
    /// failed or not.
    static func with(
        extraArguments: [String] = [], _ body: (ProxiedCLIHost) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let proxy = try await CountingProxy.start()
        let host = try HostProcess(
            dataDirectory: directory.appending("data"), extraArguments: extraArguments + ["--public-url", proxy.url])
        do {
            let url = try await host.waitUntilListening()
            guard let port = URLComponents(string: url)?.port else { throw HostProcessError("No port in \(url).") }
            proxy.forward(to: port)
            let browser = directory.appending("browser.sh")
            try ScriptedBrowser.signingIn(user: "demo", password: "demo", at: browser)
            let stack = ProxiedCLIHost(
                proxy: proxy, host: host, directory: directory,
                environment: [
                    "XDG_CONFIG_HOME": directory.appending("config").path,
                    "XDG_CACHE_HOME": directory.appending("cache").path, "BROWSER": ScriptedBrowser.command(browser),
                ])
            let login = try await stack.wopi(["login", proxy.url + "/wopibootstrapper"])
            guard login.status == 0 else { throw HostProcessError("wopi login failed: \(login.error)") }
            try await body(stack)
        } catch {
            await host.stop()
            await proxy.stop()
            throw error
        }
        await host.stop()
        await proxy.stop()
    }

    /// Runs `wopi` with `arguments`, its chunk cache under the folder named `cache`.
    func wopi(_ arguments: [String], cache: String = "cache") async throws -> WopiProcess.Result {
        try await WopiProcess.run(
            arguments,
            environment: environment.merging(["XDG_CACHE_HOME": directory.appending(cache).path]) { $1 })
    }
}
