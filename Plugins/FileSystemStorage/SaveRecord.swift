import Foundation
import WOPIStorage

/// What a save through the backend records about itself, in the `user.wopikit.save` extended attribute of the
/// file it wrote: the version history's order, the save's time on the backend's clock, and its ``SaveContext``.
///
/// The attribute stays on the file's inode when a later save replaces the file and the old inode is linked into
/// `.wopikit/versions/<file ID>/` (``FileTree/versions``), so every kept version carries its own record.
struct SaveRecord: Sendable, Equatable {
    /// The position of the save in its file's history: one more than the version it replaced (1 for a new file).
    var sequence: Int64
    /// When it was saved, on the backend's clock, in milliseconds since 1970.
    var savedAtMilliseconds: Int64
    var save: SaveContext

    var savedAt: Date { Date(timeIntervalSince1970: Double(savedAtMilliseconds) / 1000) }

    init(sequence: Int64, savedAt: Date, save: SaveContext) {
        self.sequence = sequence
        self.savedAtMilliseconds = Int64((savedAt.timeIntervalSince1970 * 1000).rounded())
        self.save = save
    }

    /// The characters a path or user ID keeps as they are in the attribute; others are percent-encoded, so the
    /// separator `:` never appears inside a field.
    private static let plain = CharacterSet(charactersIn: "-_.@+")
        .union(CharacterSet(charactersIn: "a"..."z")).union(CharacterSet(charactersIn: "A"..."Z"))
        .union(CharacterSet(charactersIn: "0"..."9"))

    /// Parses the attribute's value: `1:SEQUENCE:MILLISECONDS:FLAGS:PATH:USER`, where `FLAGS` holds `a` for an
    /// autosave and `e` for an exit save (`-` for neither) and `USER` is empty when no user is known; `nil` when it
    /// is missing or malformed.
    init?(attribute: String?) {
        guard let attribute else { return nil }
        let fields = attribute.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] == "1", let sequence = Int64(fields[1]),
            let milliseconds = Int64(fields[2]), let path = fields[4].removingPercentEncoding,
            let user = fields[5].removingPercentEncoding
        else { return nil }
        self.sequence = sequence
        self.savedAtMilliseconds = milliseconds
        self.save = SaveContext(
            userID: user.isEmpty ? nil : user, path: SavePath(rawValue: path), isAutosave: fields[3].contains("a"),
            isExitSave: fields[3].contains("e"))
    }

    /// The attribute's value. A path or user ID longer than ``fieldLimit`` once encoded is left out (recorded as
    /// unknown), so the value always fits the buffer ``POSIX/attribute(_:of:)`` reads into.
    var attributeValue: String {
        func encoded(_ text: String?) -> String {
            let field = text?.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? ""
            return field.utf8.count <= Self.fieldLimit ? field : ""
        }
        let flags = (save.isAutosave ? "a" : "") + (save.isExitSave ? "e" : "")
        let path = encoded(save.path.rawValue)
        return
            "1:\(sequence):\(savedAtMilliseconds):\(flags.isEmpty ? "-" : flags):\(path.isEmpty ? SavePath.unknown.rawValue : path):"
            + encoded(save.userID)
    }

    /// The longest path or user ID field kept, in bytes.
    static let fieldLimit = 192
}
