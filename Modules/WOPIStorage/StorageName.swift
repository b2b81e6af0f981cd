/// The naming rules every backend enforces for item names.
///
/// These are the storage-level rules that keep a name a single path component; the WOPI-level rules (characters
/// Office cannot show, `FileNameMaxLength`) live in `WOPIModels.FileNameRules` and are applied by the server.
public enum StorageName {
    /// The longest name accepted, in UTF-8 bytes (the common file-system limit).
    public static let maximumUTF8Length = 255

    /// Checks that `name` is usable as one item name and returns it unchanged.
    ///
    /// - Throws: ``StorageError/Code/invalidName`` when the name is empty, `.` or `..`, contains `/`, `\` or a
    ///   control character, has leading or trailing white space, or is longer than ``maximumUTF8Length`` bytes.
    @discardableResult
    public static func validate(_ name: String) throws -> String {
        if let problem = problem(with: name) {
            throw StorageError(.invalidName, "The name \"\(name)\" cannot be used: \(problem).")
        }
        return name
    }

    /// Why `name` is not a valid item name, or `nil` when it is valid.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name == "." || name == ".." { return "it is a relative path component" }
        if name.utf8.count > maximumUTF8Length { return "it is longer than \(maximumUTF8Length) UTF-8 bytes" }
        if name.contains("/") || name.contains("\\") { return "it contains a path separator" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "it contains a control character"
        }
        if name.first!.isWhitespace || name.last!.isWhitespace { return "it starts or ends with white space" }
        return nil
    }
}
