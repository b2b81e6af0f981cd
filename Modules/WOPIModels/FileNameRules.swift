/// The WOPI rules for file and container names (digest §6.1, §14.3), on top of the storage rules of
/// `WOPIStorage.StorageName`.
///
/// - Lengths are counted in UTF-16 code units, as Office (.NET) counts `FileNameMaxLength`; truncation never
///   splits a character.
/// - The base name is the part before the last `.`; see ``split(_:)``.
/// - Names returned to Office must not start with `.` and must not contain ``forbiddenCharacters``.
public enum FileNameRules {
    /// Characters Office for iOS and Android cannot show in `BaseFileName`, container `Name`, `UserId` and
    /// `OwnerId`: `\ / : * ? " < > | # { } ^ [ ] ` %` and the backtick.
    public static let forbiddenCharacters: Set<Character> = [
        "\\", "/", ":", "*", "?", "\"", "<", ">", "|", "#", "{", "}", "^", "[", "]", "`", "%",
    ]

    /// The default `FileNameMaxLength`: the longest base name (without extension), in UTF-16 code units.
    public static let defaultMaximumBaseNameLength = 250

    /// The base name used when a name has nothing usable left, for example `.docx` or `***`.
    public static let defaultBaseName = "Untitled"

    /// Splits a name at its last `.` into base name and extension (without the dot).
    ///
    /// `"archive.tar.gz"` gives `("archive.tar", "gz")`; `".docx"` gives `("", "docx")` (an extension only);
    /// `"README"` gives `("README", nil)`. A trailing dot is not a separator: `"notes."` gives `("notes.", nil)`.
    /// `base + "." + extension` (or `base` alone) always gives the name back.
    public static func split(_ name: String) -> (base: String, extension: String?) {
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) != name.endIndex else {
            return (name, nil)
        }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// Joins a base name and an optional extension (without the dot).
    public static func join(base: String, extension: String?) -> String {
        guard let `extension` else { return base }
        return base + "." + `extension`
    }

    /// Makes `name` acceptable to Office and to storage; never returns an empty string.
    ///
    /// Replaces ``forbiddenCharacters`` and control characters with `-`, trims white space, strips leading dots,
    /// truncates the base name to `maximumBaseNameLength` keeping the extension, and falls back to
    /// `defaultBaseName` when no base name is left (`".docx"` becomes `"Untitled.docx"`).
    public static func sanitized(
        _ name: String, maximumBaseNameLength: Int = defaultMaximumBaseNameLength,
        defaultBaseName: String = defaultBaseName
    ) -> String {
        let cleaned = String(name.map { isForbidden($0) ? "-" : $0 })
        let parts = split(cleaned.trimmingWhiteSpace())
        var base = String(parts.base.drop(while: { $0 == "." || $0.isWhitespace })).trimmingWhiteSpace()
        let ext = parts.extension?.trimmingWhiteSpace()
        let `extension` = (ext?.isEmpty ?? true) ? nil : ext
        base = truncated(base, toUTF16Length: effectiveLimit(maximumBaseNameLength)).trimmingWhiteSpace()
        if base.isEmpty || base.allSatisfy({ $0 == "." }) {
            base = defaultBaseName
        }
        return join(base: base, extension: `extension`)
    }

    /// Why `name` cannot be used as given (WOPI "specific" mode), or `nil` when it can.
    ///
    /// The reason is written for `X-WOPI-InvalidFileNameError` / `X-WOPI-InvalidContainerNameError`.
    /// - Parameter maximumBaseNameLength: the host's `FileNameMaxLength`; `0` means the default (250).
    public static func problem(
        with name: String, maximumBaseNameLength: Int = defaultMaximumBaseNameLength
    ) -> String? {
        let limit = effectiveLimit(maximumBaseNameLength)
        if name.isEmpty { return "The name is empty." }
        if name.first!.isWhitespace || name.last!.isWhitespace { return "The name starts or ends with white space." }
        if name.hasPrefix(".") { return "The name starts with a dot." }
        if let bad = name.first(where: isForbidden) {
            let shown = forbiddenCharacters.contains(bad) ? "'\(bad)'" : "a control character"
            return "The name contains \(shown), which Office cannot use (not allowed: control characters and "
                + "\\ / : * ? \" < > | # { } ^ [ ] ` %)."
        }
        let base = split(name).base
        if base.utf16.count > limit {
            return "The name without its extension is \(base.utf16.count) characters long; the limit is \(limit)."
        }
        return nil
    }

    /// Returns `name` if it is free, else the first free `name (1).ext`, `name (2).ext`, ...
    ///
    /// The extension is kept. A base name that already ends in ` (n)` is counted on from there rather than
    /// growing `name (1) (1)`. The stem is shortened when needed so that the numbered base name stays within
    /// `maximumBaseNameLength`. Gives up after 10,000 tries and uses a random suffix instead.
    /// - Parameters:
    ///   - maximumBaseNameLength: the host's `FileNameMaxLength`; `0` means the default (250).
    ///   - isTaken: whether a name is already in use (called with candidates in order).
    public static func uniqueName(
        for name: String, maximumBaseNameLength: Int = defaultMaximumBaseNameLength, isTaken: (String) -> Bool
    ) -> String {
        guard isTaken(name) else { return name }
        let parts = split(name)
        let (stem, start) = numberedStem(parts.base)
        func candidate(_ suffix: String) -> String {
            let room = effectiveLimit(maximumBaseNameLength) - suffix.utf16.count
            let shortStem = truncated(stem, toUTF16Length: max(0, room))
            return join(base: shortStem + suffix, extension: parts.extension)
        }
        for number in (start + 1)...(start + 10_000) {
            let name = candidate(" (\(number))")
            if !isTaken(name) { return name }
        }
        return candidate(" (\(String(UInt64.random(in: .min ... .max), radix: 36)))")
    }

    /// The name to create in WOPI "suggested" mode (PutRelativeFile, CreateChildFile) for `target`, before
    /// collisions are resolved with ``uniqueName(for:maximumBaseNameLength:isTaken:)``.
    ///
    /// A target that starts with `.` is only an extension: it is combined with the source file's base name, or
    /// with `defaultBaseName` when there is no source (CreateChildFile). The result is
    /// ``sanitized(_:maximumBaseNameLength:defaultBaseName:)``.
    /// - Parameters:
    ///   - target: the decoded `X-WOPI-SuggestedTarget`.
    ///   - sourceName: the name of the file PutRelativeFile was called on, with its extension.
    ///   - defaultBaseName: the base name used when there is nothing better.
    ///   - maximumBaseNameLength: the host's `FileNameMaxLength`; `0` means the default (250).
    public static func suggestedName(
        from target: String, sourceName: String?, defaultBaseName: String = defaultBaseName,
        maximumBaseNameLength: Int = defaultMaximumBaseNameLength
    ) -> String {
        var name = target.trimmingWhiteSpace()
        if name.hasPrefix(".") {
            let sourceBase = sourceName.map { split(sanitized($0, defaultBaseName: defaultBaseName)).base }
            name = (sourceBase ?? defaultBaseName) + name
        }
        return sanitized(name, maximumBaseNameLength: maximumBaseNameLength, defaultBaseName: defaultBaseName)
    }

    /// Whether `character` must not appear in a name: the forbidden list and control characters.
    static func isForbidden(_ character: Character) -> Bool {
        forbiddenCharacters.contains(character)
            || character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// The length limit to apply: `FileNameMaxLength` values of `0` or less mean the default.
    static func effectiveLimit(_ maximumBaseNameLength: Int) -> Int {
        maximumBaseNameLength > 0 ? maximumBaseNameLength : defaultMaximumBaseNameLength
    }

    /// Splits `base` into a stem and a number when it ends in ` (n)` (1 to 9 decimal digits).
    static func numberedStem(_ base: String) -> (stem: String, number: Int) {
        guard base.hasSuffix(")"), let open = base.lastIndex(of: "("), open > base.startIndex,
            base[base.index(before: open)] == " "
        else { return (base, 0) }
        let digits = base[base.index(after: open)..<base.index(before: base.endIndex)]
        guard (1...9).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(digits)
        else { return (base, 0) }
        return (String(base[..<base.index(before: open)]), number)
    }

    /// The longest prefix of `text` (whole characters) that fits in `limit` UTF-16 code units.
    static func truncated(_ text: String, toUTF16Length limit: Int) -> String {
        guard text.utf16.count > limit else { return text }
        var result = ""
        var length = 0
        for character in text {
            let width = character.utf16.count
            if length + width > limit { break }
            result.append(character)
            length += width
        }
        return result
    }
}

extension String {
    /// The string without leading and trailing white space (Foundation-free).
    func trimmingWhiteSpace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
