import Foundation
import WOPIStorage

/// Names the copy that keeps a local version which could not overwrite a file changed by someone else.
enum ConflictName {
    /// `report (conflict 2025-01-31 142501).docx` for `report.docx`, in local time; a later `attempt` adds a
    /// counter (`… 142501 2).docx`) for when that name is taken. The base name is shortened when the result would
    /// exceed the 255-byte name limit.
    static func make(for name: String, at date: Date, attempt: Int = 0) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone.current, from: date)
        let stamp = String(
            format: "%04d-%02d-%02d %02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        let suffix = attempt == 0 ? " (conflict \(stamp))" : " (conflict \(stamp) \(attempt + 1))"
        var base = name
        var fileExtension = ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            base = String(name[..<dot])
            fileExtension = String(name[dot...])
        }
        while !base.isEmpty,
            base.utf8.count + suffix.utf8.count + fileExtension.utf8.count > StorageName.maximumUTF8Length
        {
            base.removeLast()
        }
        return base + suffix + fileExtension
    }
}
