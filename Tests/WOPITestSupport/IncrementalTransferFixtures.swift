import Foundation

extension HostProcess {
    /// `wopi-host serve` arguments that turn co-authoring on, and with it CSPP Plus incremental transfer
    /// (`SupportsChunkedFileTransfer`); the real-time and collaboration URLs point at a closed port.
    public static let coauthoringArguments = [
        "--coauthoring", "--real-time-channel-url", "http://127.0.0.1:9/rtc",
        "--collaboration-service-url", "http://127.0.0.1:9/collab",
    ]
    /// `wopi-host serve` arguments that turn incremental transfer off for WOPIKit's client too: GetFile and PutFile
    /// only.
    public static let wholeFileArguments = ["--incremental-transfer", "never"]
}

extension TestZip {
    /// Writes a zip like an Office document at `path`: `media` entries of 1 MiB of seeded random (incompressible)
    /// bytes each, then `word/document.xml` holding `text`; the same `seed` and `media` give the same media bytes.
    public static func write(_ path: String, text: String, media: Int, seed: UInt64 = 7) throws {
        var generator = SeededGenerator(seed: seed)
        var entries: [(name: String, content: [UInt8])] = []
        for index in 0..<media {
            var bytes = [UInt8](repeating: 0, count: 1 << 20)
            bytes.withUnsafeMutableBytes { raw in
                for offset in stride(from: 0, to: raw.count, by: 8) {
                    raw.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
                }
            }
            entries.append((name: "media/image\(index).bin", content: bytes))
        }
        entries.append((name: "word/document.xml", content: Array(text.utf8)))
        guard FileManager.default.createFile(atPath: path, contents: Data(make(entries))) else {
            throw HostProcessError("Cannot write the test zip \(path).")
        }
    }
}
