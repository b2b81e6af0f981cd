import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("wopikit-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of a path under the directory.
    func appending(_ path: String) -> URL { url.appendingPathComponent(path) }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
