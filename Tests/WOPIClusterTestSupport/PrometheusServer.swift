package import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import WOPITestSupport

/// Debian's Prometheus (`/usr/bin/prometheus`) scraping one target every second, with its HTTP API on a free
/// loopback port: a test runs a session against the target, then asks the API what Prometheus scraped.
package final class PrometheusServer: Sendable {
    /// Prometheus from Debian's `prometheus` package.
    package static let executable = URL(fileURLWithPath: "/usr/bin/prometheus")

    /// The API's base URL (`http://127.0.0.1:PORT`).
    package let url: String
    private let folder: TemporaryDirectory
    private let process = NIOLockedValueBox<Process?>(nil)

    private init(url: String, folder: TemporaryDirectory) {
        self.url = url
        self.folder = folder
    }

    /// Starts Prometheus scraping `http://TARGET/metrics` (`target` is `HOST:PORT`) every second and waits until
    /// it is ready.
    package static func start(scraping target: String, path: String = "/metrics") async throws -> PrometheusServer {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw HostProcessError(
                "Prometheus is not installed (\(executable.path) is missing): run `scripts/install-deps.sh --test` "
                    + "(Debian's prometheus) before the tests.")
        }
        let folder = try TemporaryDirectory()
        let port = try LoopbackPort.free()
        let server = PrometheusServer(url: "http://127.0.0.1:\(port)", folder: folder)
        let configuration = """
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
            scrape_configs:
              - job_name: wopikit
                metrics_path: \(path)
                static_configs:
                  - targets: ['\(target)']
            """
        let configurationFile = folder.appending("prometheus.yml")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
        let child = Process()
        child.executableURL = executable
        child.arguments = [
            "--config.file", configurationFile.path, "--storage.tsdb.path", folder.appending("data").path,
            "--web.listen-address", "127.0.0.1:\(port)",
        ]
        let logFile = folder.appending("prometheus.log")
        guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
            throw HostProcessError("Cannot create \(logFile.path).")
        }
        let log = try FileHandle(forWritingTo: logFile)
        child.standardOutput = log
        child.standardError = log
        try child.run()
        ChildProcesses.register(child.processIdentifier)
        server.process.withLockedValue { $0 = child }
        let ready = try await Polling.until {
            guard child.isRunning else {
                throw HostProcessError("Prometheus exited on start (\(child.terminationStatus)):\n\(server.log())")
            }
            return (try? await TestHTTP.send(.GET, server.url + "/-/ready").status) == 200
        }
        if ready { return server }
        await server.stop()
        throw HostProcessError("Prometheus was not ready within a minute:\n\(server.log())")
    }

    /// The value of the instant query `query` (PromQL) as Prometheus answers it now: `nil` when it has no sample.
    package func value(_ query: String) async throws -> Double? {
        var components = URLComponents(string: url + "/api/v1/query")!
        components.queryItems = [URLQueryItem(name: "query", value: query)]
        let reply = try await TestHTTP.send(.GET, components.url!.absoluteString)
        guard reply.status == 200,
            let object = try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? [String: Any],
            let data = object["data"] as? [String: Any], let results = data["result"] as? [[String: Any]],
            let sample = results.first?["value"] as? [Any], sample.count == 2, let text = sample[1] as? String
        else { return nil }
        return Double(text)
    }

    /// Whether the last scrape of the target succeeded (`up == 1`).
    package func targetIsUp() async throws -> Bool { try await value("up") == 1 }

    /// Prometheus's output so far, for failure messages.
    package func log() -> String {
        (try? String(contentsOf: folder.appending("prometheus.log"), encoding: .utf8)) ?? ""
    }

    /// Stops Prometheus (SIGKILL: it keeps nothing a test needs) and removes its folder.
    package func stop() async {
        guard let child = process.withLockedValue({ $0 }) else { return }
        await child.killAndWait()
        folder.remove()
    }
}
