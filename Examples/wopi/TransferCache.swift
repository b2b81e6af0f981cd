import Foundation
import WOPIClient

/// The chunk cache of a place (`$XDG_CACHE_HOME/wopi/chunks/PLACE`, else `~/.cache/wopi/chunks/PLACE`), which
/// `get` and `put` use for incremental transfer; `nil` (whole-file transfer) when it cannot be opened.
enum TransferCache {
    static func open(place: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ChunkCache?
    {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return try? ChunkCache(directory: base.appendingPathComponent("wopi/chunks/\(place)"))
    }

    /// "sent 41 KiB of 18.2 MiB" (or "received …").
    static func summary(_ figures: TransferFigures, verb: String) -> String {
        "\(verb) \(size(figures.wireBytes)) of \(size(figures.fileBytes))"
            + (figures.incremental
                ? " (\(figures.chunksTransferred) of \(figures.chunks) chunks)"
                : " (whole file: the host has no incremental transfer)")
    }

    static func size(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0
            ? "\(bytes) B"
            : (value < 100 ? String(format: "%.1f %@", value, units[unit]) : "\(Int(value)) \(units[unit])")
    }
}
