import Foundation
import WOPITestSupport

/// A test file on the host: its index in the test's list, its WOPI file ID and an access token for it.
///
/// URLs are built from the host's current base URL, since a restarted host listens on a new port; tokens stay
/// valid across restarts (the signing key lives in the data directory).
struct WOPIFile: Sendable, Hashable {
    let index: Int
    let id: String
    let token: String

    func url(_ base: String) -> String { "\(base)/wopi/files/\(id)?access_token=\(token)" }
    func contentsURL(_ base: String) -> String { "\(base)/wopi/files/\(id)/contents?access_token=\(token)" }

    /// Imports version 0 of test files `0..<sizes.count` (one per size) into the demo user's `Stress/` folder
    /// with `wopi-host import`, registers that version, and mints a token for each with `wopi-host token`.
    ///
    /// The host must be serving `dataDirectory` (`token` prints URLs of the running `serve`).
    static func importFiles(sizes: [Int], into dataDirectory: URL, registry: VersionRegistry) async throws
        -> [WOPIFile]
    {
        let staging = dataDirectory.appendingPathComponent("import-staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        let data = ["--data", dataDirectory.path, "--user", "demo"]
        var files: [WOPIFile] = []
        for (index, size) in sizes.enumerated() {
            let local = staging.appendingPathComponent("file-\(index).bin")
            try registry.register(ContentPattern(file: index, version: 0, size: size)).write(to: local)
            let path = "Stress/file-\(index).bin"
            _ = try await HostProcess.run(["import"] + data + [local.path, path])
            let json = try await HostProcess.run(["token"] + data + ["--file", path])
            let token = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
            guard let wopiSrc = token["wopiSrc"] as? String, let accessToken = token["accessToken"] as? String,
                let id = wopiSrc.split(separator: "/").last
            else { throw HostProcessError("wopi-host token printed no wopiSrc/accessToken: \(json)") }
            files.append(WOPIFile(index: index, id: String(id), token: accessToken))
        }
        return files
    }
}
