package import Foundation
import NIOConcurrencyHelpers
import WOPITestSupport

/// Debian's nginx (`/usr/sbin/nginx`) in front of a cluster's hosts, configured from `scripts/cluster-nginx.conf`
/// as `scripts/cluster.sh` runs it: round-robin, no stickiness, no buffering. Its access log names the host that
/// answered each request, so a test can check that requests really were spread.
///
/// It runs in the foreground as one process (`daemon off; master_process off;`) and is stopped with SIGKILL: nginx
/// started from a test process inherits the runner's signal mask and ignores SIGQUIT and SIGTERM.
package final class BalancerFront: Sendable {
    /// nginx from Debian's `nginx` package.
    package static let executable = URL(fileURLWithPath: "/usr/sbin/nginx")
    /// The configuration template shared with `scripts/cluster.sh`.
    package static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/cluster-nginx.conf").standardizedFileURL

    /// The front's base URL (`http://127.0.0.1:PORT`).
    package let url: String
    private let folder: TemporaryDirectory
    private let process = NIOLockedValueBox<Process?>(nil)

    private init(url: String, folder: TemporaryDirectory) {
        self.url = url
        self.folder = folder
    }

    /// Starts nginx on 127.0.0.1:`port` balancing over `hosts` (base URLs `http://HOST:PORT`) and waits until it
    /// accepts connections.
    package static func start(port: Int, hosts: [String]) async throws -> BalancerFront {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw HostProcessError(
                "nginx is not installed (\(executable.path) is missing): run `scripts/install-deps.sh --test` "
                    + "(Debian's nginx) before the tests.")
        }
        let folder = try TemporaryDirectory()
        let front = BalancerFront(url: "http://127.0.0.1:\(port)", folder: folder)
        let upstream = hosts.map {
            "    server \($0.replacingOccurrences(of: "http://", with: "")) max_fails=1 fail_timeout=2s;"
        }
        let configuration = try String(contentsOf: template, encoding: .utf8)
            .replacingOccurrences(of: "@WORK@", with: folder.url.path)
            .replacingOccurrences(of: "@PORT@", with: "\(port)")
            .replacingOccurrences(of: "@UPSTREAM@", with: upstream.joined(separator: "\n"))
        let configurationFile = folder.appending("nginx.conf")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
        try await front.run(configurationFile, port: port)
        return front
    }

    private func run(_ configurationFile: URL, port: Int) async throws {
        let errorLog = folder.appending("nginx-error.log")
        let child = Process()
        child.executableURL = Self.executable
        child.arguments = [
            "-c", configurationFile.path, "-p", folder.url.path, "-e", errorLog.path,
            "-g", "daemon off; master_process off;",
        ]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        ChildProcesses.register(child.processIdentifier)
        process.withLockedValue { $0 = child }
        let listening = try await Polling.until {
            if LoopbackPort.accepts(port) { return true }
            guard child.isRunning else {
                let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
                throw HostProcessError("nginx exited on start (\(child.terminationStatus)):\n\(log)")
            }
            return false
        }
        if listening { return }
        await stop()
        throw HostProcessError("nginx did not listen on port \(port) within a minute; its log is in \(errorLog.path).")
    }

    /// How many requests each host answered so far, by `HOST:PORT` (from the access log; a request nginx retried
    /// on a second host counts for every host it tried).
    ///
    /// nginx writes a request's log line after it has sent the response, so a client that has its answer may read
    /// the log before the line is there: with `atLeast`, this waits (``Polling/patience`` at most) until the log
    /// holds that many requests.
    package func requestsPerHost(atLeast expected: Int = 0) async -> [String: Int] {
        var lines = loggedRequests()
        _ = try? await Polling.until {
            lines = loggedRequests()
            return lines.count >= expected
        }
        var counts: [String: Int] = [:]
        for hosts in lines {
            for address in hosts.split(separator: ",") {
                counts[address.trimmingCharacters(in: .whitespaces), default: 0] += 1
            }
        }
        return counts
    }

    /// The hosts tried for each request in the access log, in order.
    private func loggedRequests() -> [Substring] {
        let log = (try? String(contentsOf: folder.appending("nginx-access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 3)  // status, method, path, the hosts tried
            return fields.count == 4 ? fields[3] : nil
        }
    }

    /// nginx's error log so far (empty when nothing went wrong), for failure messages.
    package func errorLog() -> String {
        (try? String(contentsOf: folder.appending("nginx-error.log"), encoding: .utf8)) ?? ""
    }

    /// Kills nginx (SIGKILL: see the type's comment) and removes its folder.
    package func stop() async {
        guard let child = process.withLockedValue({ $0 }) else { return }
        await child.killAndWait()
        folder.remove()
    }
}
