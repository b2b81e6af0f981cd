package import Foundation
import WOPITestSupport

/// A real S3 server for the tests: Ceph's RADOS Gateway on a throw-away single-node Ceph cluster (one monitor, one
/// memstore OSD, radosgw) from Debian's packages, started by `scripts/ceph-cluster.sh` in a temporary folder on free
/// loopback ports, once per test process, and stopped when that process exits: its daemons are killed by the exit
/// handler of ``ChildProcesses``, and a watchdog (a detached shell polling the test process) runs
/// `scripts/ceph-cluster.sh stop` and removes the folder, even when the process was killed.
///
/// It fails loudly, with what to install, when Ceph is missing: the tests never skip.
///
/// ```swift
/// let gateway = try await CephGateway.shared.value
/// let endpoint = gateway.endpoint       // http://127.0.0.1:PORT, path-style, SigV4
/// ```
package final class CephGateway: Sendable {
    /// The cluster every test of the process shares (each test makes its own bucket in it).
    package static let shared = Task { try await CephGateway.start() }

    /// The programs of Debian's `ceph-mon`, `ceph-osd`, `radosgw` and `ceph-common` packages the script runs.
    package static let programs = ["ceph-mon", "ceph-osd", "radosgw", "radosgw-admin", "ceph", "ceph-authtool"]

    /// `scripts/ceph-cluster.sh` of this package.
    package static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/ceph-cluster.sh")

    /// The folder of the cluster (its configuration, logs and `s3.env`).
    package let directory: URL
    /// The S3 endpoint, `http://127.0.0.1:PORT` (path-style addressing).
    package let endpoint: URL
    /// The region to sign for (`us-east-1`: Ceph accepts any).
    package let region: String
    /// The access key of the S3 user the script made.
    package let accessKeyID: String
    /// Its secret.
    package let secretAccessKey: String

    private init(directory: URL, values: [String: String]) throws {
        guard let endpoint = values["S3_ENDPOINT"].flatMap(URL.init(string:)), let access = values["AWS_ACCESS_KEY_ID"],
            let secret = values["AWS_SECRET_ACCESS_KEY"]
        else {
            throw HostProcessError(
                "scripts/ceph-cluster.sh wrote no S3_ENDPOINT, AWS_ACCESS_KEY_ID or AWS_SECRET_ACCESS_KEY in "
                    + "\(directory.path)/ceph/s3.env.")
        }
        self.directory = directory
        self.endpoint = endpoint
        self.region = values["S3_REGION"] ?? "us-east-1"
        self.accessKeyID = access
        self.secretAccessKey = secret
    }

    /// The `--object-store` URL of `bucket` on this gateway, its keys read from the cluster's `s3.env`.
    package func objectStoreURL(bucket: String) -> String {
        "s3://\(bucket)?endpoint=\(endpoint.absoluteString)&region=\(region)&addressing=path"
            + "&credentials-file=\(directory.appendingPathComponent("s3.env").path)"
    }

    /// The variables of `s3.env`, for a child process (boto3, s3cmd, a host): `S3_ENDPOINT`, `S3_REGION`,
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`.
    package var environment: [String: String] {
        [
            "S3_ENDPOINT": endpoint.absoluteString, "S3_REGION": region, "AWS_ACCESS_KEY_ID": accessKeyID,
            "AWS_SECRET_ACCESS_KEY": secretAccessKey,
        ]
    }

    /// Starts a cluster in a new temporary folder and waits until S3 answers (a few seconds).
    package static func start() async throws -> CephGateway {
        let path = "/usr/sbin:/usr/bin:/sbin:/bin"
        let missing = programs.filter { program in
            !path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        }
        guard missing.isEmpty else {
            throw HostProcessError(
                "Ceph is not installed (\(missing.joined(separator: ", ")) missing): run `scripts/install-deps.sh "
                    + "--test` (Debian's ceph-mon, ceph-osd, radosgw, ceph-common) before the tests.")
        }
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw HostProcessError("\(script.path) is missing or not executable: the S3 tests start Ceph with it.")
        }
        let root = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("wopikit-ceph-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let cluster = root.appendingPathComponent("ceph")
        // The watchdog stops the cluster and removes the folder after this process (not ChildProcesses.removeAtExit,
        // which would remove it before the daemons are stopped).
        try startWatchdog(cluster: cluster, root: root)
        let started = try await runScript("start", cluster, timeout: .seconds(240))
        guard started.status == 0,
            let envPath = started.output.split(separator: "\n").last.map(String.init),
            let text = try? String(contentsOfFile: envPath, encoding: .utf8)
        else {
            throw HostProcessError(
                "scripts/ceph-cluster.sh start failed (\(started.status)); logs in \(cluster.path)/log:\n"
                    + started.output + started.error)
        }
        // The daemons are killed when the test process exits, like every child a test starts.
        for name in ["client.rgw.gw", "osd.0", "mon.a"] {
            let pidFile = cluster.appendingPathComponent("run/\(name).pid").path
            if let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap({
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }) {
                ChildProcesses.register(pid)
            }
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return try CephGateway(directory: cluster, values: values)
    }

    /// Kills the gateway with SIGKILL (no clean shutdown): requests in flight break, and new ones are refused until
    /// ``startGateway()``. The monitor and the OSD, and the objects they hold, stay.
    package func killGateway() async throws {
        try await runScript("kill-gateway")
    }

    /// Starts the gateway again on the same port, after ``killGateway()``, and waits until S3 answers.
    package func startGateway() async throws {
        let output = try await runScript("start-gateway")
        if let pid = output.split(separator: "\n").last.flatMap({ Int32($0) }) { ChildProcesses.register(pid) }
    }

    /// Stops the cluster's daemons (the watchdog removes the folder when the process ends); for a test's own cluster.
    package func stop() async {
        _ = try? await runScript("stop")
    }

    @discardableResult
    private func runScript(_ command: String) async throws -> String {
        let result = try await Self.runScript(command, directory, timeout: .seconds(120))
        guard result.status == 0 else {
            throw HostProcessError(
                "scripts/ceph-cluster.sh \(command) failed (\(result.status)); logs in \(directory.path)/log:\n"
                    + result.output + result.error)
        }
        return result.output
    }

    /// Runs `scripts/ceph-cluster.sh COMMAND DIR` through a shell that closes every descriptor but 0-2 first: the
    /// daemons the script leaves running would otherwise inherit the one Foundation's Process watches, and the script
    /// would never seem to exit.
    private static func runScript(
        _ command: String, _ cluster: URL, timeout: Duration
    ) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"),
            [
                "-c",
                "for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ \"$n\" -gt 2 ]; then eval \"exec $n>&-\" 2>/dev/null; fi; "
                    + "done; exec \"$0\" \"$@\"", script.path, command, cluster.path,
            ], timeout: timeout)
    }

    /// Stops the cluster with the script when this process is gone, however it ended (a crash or SIGKILL runs no
    /// exit handler), then removes its folder: a detached shell that polls this process's pid.
    private static func startWatchdog(cluster: URL, root: URL) throws {
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        watchdog.arguments = [
            "/bin/sh", "-c",
            "while kill -0 \"$1\" 2>/dev/null; do sleep 1; done; \"$2\" stop \"$3\" >/dev/null 2>&1; rm -rf \"$4\"",
            "ceph-watchdog", String(getpid()), script.path, cluster.path, root.path,
        ]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try watchdog.run()
    }
}
