import Foundation

/// The figures of one PutFile + GetFile run.
struct BenchResult {
    var storage: String
    var size: Int64
    var idleRSS: Int64
    var putSeconds: Double
    var putPeakRSS: Int64
    var getSeconds: Double
    var getPeakRSS: Int64

    var peakRSS: Int64 { max(putPeakRSS, getPeakRSS) }

    static let header = [
        "storage", "size", "idle RSS", "PutFile MiB/s", "PutFile peak RSS", "GetFile MiB/s", "GetFile peak RSS",
    ]

    var cells: [String] {
        [
            storage, Self.mebibytes(size), Self.mebibytes(idleRSS), Self.rate(size, putSeconds),
            Self.mebibytes(putPeakRSS), Self.rate(size, getSeconds), Self.mebibytes(getPeakRSS),
        ]
    }

    /// A Markdown table of `results`.
    static func table(_ results: [BenchResult]) -> String {
        let rows = [header] + results.map(\.cells)
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| "
                + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + results.map { line($0.cells) }).joined(separator: "\n")
    }

    static func mebibytes(_ bytes: Int64) -> String {
        bytes >= 1 << 30 && bytes % (1 << 30) == 0
            ? "\(bytes >> 30) GiB" : String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }

    static func rate(_ bytes: Int64, _ seconds: Double) -> String {
        String(format: "%.0f", Double(bytes) / 1_048_576 / seconds)
    }
}
