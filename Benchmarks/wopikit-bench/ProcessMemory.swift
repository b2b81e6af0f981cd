import Foundation

/// Resident memory of a Linux process, from `/proc/PID/status`.
struct ProcessMemory {
    let pid: Int32

    /// The current resident set size (`VmRSS`), in bytes.
    func residentBytes() throws -> Int64 { try field("VmRSS") }

    /// The peak resident set size (`VmHWM`, high-water mark), in bytes: since start, or since the last
    /// ``resetPeak()``.
    func peakResidentBytes() throws -> Int64 { try field("VmHWM") }

    /// Resets the high-water mark to the current RSS (`echo 5 > /proc/PID/clear_refs`); returns whether it could.
    func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/\(pid)/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    private func field(_ name: String) throws -> Int64 {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
            let kilobytes = Int64(line.split(separator: " ").dropFirst().first ?? "")
        else { throw BenchError("/proc/\(pid)/status has no \(name); this benchmark needs Linux.") }
        return kilobytes * 1024
    }
}
