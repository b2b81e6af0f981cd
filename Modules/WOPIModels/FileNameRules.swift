/// The rules a host applies to file and container names, on top of the storage rules of `WOPIStorage.StorageName`.
///
/// A host chooses its rules (`WOPIHostConfiguration.fileNameRules`). ``default`` accepts the names a storage
/// provider's users have (`.gitignore`, `Notes #3.docx`, `100% [final].xlsx`) and rejects only what no file
/// system or Office client can hold; ``officeMobile`` also keeps out what Office for iOS and Android cannot show
/// in `BaseFileName` and container names (see
/// https://learn.microsoft.com/en-us/microsoft-365/cloud-storage-partner-program/online/scenarios/createnew and the
/// repo's `Docs/file-names.md`).
///
/// - Lengths are counted in UTF-16 code units, as Office (.NET) counts `FileNameMaxLength`; truncation never
///   splits a character.
/// - The base name is the part before the last `.`; see ``split(_:)``.
public struct FileNameRules: Sendable, Hashable {
    /// Characters a name must not contain (control characters are always refused).
    public var forbiddenCharacters: Set<Character> {
        didSet { forbiddenBytes = ASCIIBits(forbiddenCharacters) }
    }
    /// The characters of ``forbiddenCharacters`` that are one ASCII byte, for ``isPlainAcceptableASCII(_:)``; longer
    /// characters cannot occur in ASCII.
    private var forbiddenBytes: ASCIIBits

    /// A set of ASCII bytes, a bit per byte value (`low`: 0–63, `high`: 64–127).
    private struct ASCIIBits: Sendable, Hashable {
        private var low: UInt64 = 0
        private var high: UInt64 = 0

        /// The characters of `characters` that are one ASCII byte.
        init(_ characters: Set<Character>) {
            for character in characters {
                guard let byte = character.asciiValue, character.unicodeScalars.count == 1 else { continue }
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
        }

        /// Whether `byte` (below 128) is in the set.
        func contains(_ byte: UInt8) -> Bool {
            (byte < 64 ? low >> UInt64(byte) : high >> UInt64(byte - 64)) & 1 == 1
        }
    }
    /// Whether a name may start with `.` (`.gitignore`, `.~lock.Report.docx#`).
    public var allowsLeadingDot: Bool
    /// Whether the Windows device names (`CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`, `LPT1`–`LPT9`), alone or with
    /// an extension (`nul.txt`), are refused.
    public var rejectsDeviceNames: Bool
    /// The longest base name (without extension) in UTF-16 code units: the host's `FileNameMaxLength`. `0` or
    /// less means ``defaultMaximumBaseNameLength``.
    public var maximumBaseNameLength: Int

    /// Creates rules.
    /// - Parameters:
    ///   - forbiddenCharacters: characters a name must not contain, besides control characters.
    ///   - allowsLeadingDot: whether a name may start with `.`.
    ///   - rejectsDeviceNames: whether Windows device names are refused.
    ///   - maximumBaseNameLength: the host's `FileNameMaxLength`.
    public init(
        forbiddenCharacters: Set<Character>, allowsLeadingDot: Bool, rejectsDeviceNames: Bool = true,
        maximumBaseNameLength: Int = Self.defaultMaximumBaseNameLength
    ) {
        self.forbiddenCharacters = forbiddenCharacters
        self.forbiddenBytes = ASCIIBits(forbiddenCharacters)
        self.allowsLeadingDot = allowsLeadingDot
        self.rejectsDeviceNames = rejectsDeviceNames
        self.maximumBaseNameLength = maximumBaseNameLength
    }

    /// The characters no file system or Office client can hold in a name: `\ / " * : < > ? |`.
    public static let portableForbiddenCharacters: Set<Character> = ["\\", "/", ":", "*", "?", "\"", "<", ">", "|"]

    /// The default: names as users have them. Refuses only control characters, `\ / " * : < > ? |`, Windows
    /// device names and leading or trailing white space; dots at the start and `# % [ ] { } ^` and the backtick are
    /// fine.
    public static let `default` = FileNameRules(
        forbiddenCharacters: portableForbiddenCharacters, allowsLeadingDot: true)

    /// What Office for iOS and Android can show: also refuses `# { } ^ [ ] % ` and the backtick, and a leading `.`.
    public static let officeMobile = FileNameRules(
        forbiddenCharacters: portableForbiddenCharacters.union(["#", "{", "}", "^", "[", "]", "`", "%"]),
        allowsLeadingDot: false)

    /// The Windows device names, upper case.
    public static let deviceNames: Set<String> = Set(
        ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

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

    /// Makes `name` acceptable under these rules and to storage; never returns an empty string.
    ///
    /// A name without a ``problem(with:)`` is returned unchanged. Otherwise ``forbiddenCharacters`` and control
    /// characters become `-`, white space is trimmed, leading dots are stripped unless ``allowsLeadingDot``, a
    /// device name gets a `_` (`CON.txt` becomes `CON_.txt`), the base name is truncated to
    /// ``maximumBaseNameLength`` keeping the extension, and `defaultBaseName` stands in when no name is left.
    public func sanitized(_ name: String, defaultBaseName: String = Self.defaultBaseName) -> String {
        if problem(with: name) == nil { return name }
        let cleaned = String(name.map { isForbidden($0) ? "-" : $0 }).trimmingWhiteSpace()
        let parts = Self.split(cleaned)
        var base = parts.base
        if !allowsLeadingDot { base = String(base.drop(while: { $0 == "." || $0.isWhitespace })) }
        base = base.trimmingWhiteSpace()
        let ext = parts.extension?.trimmingWhiteSpace()
        var `extension` = (ext?.isEmpty ?? true) ? nil : ext
        if allowsLeadingDot, base.isEmpty, let whole = `extension` {
            // `.gitignore` is a whole name here, not an extension without a base name.
            base = "." + whole
            `extension` = nil
        }
        if rejectsDeviceNames, Self.isDeviceName(base) {
            let head = base.prefix(while: { $0 != "." })
            base = String(head) + "_" + String(base.dropFirst(head.count))
        }
        base = Self.truncated(base, toUTF16Length: limit).trimmingWhiteSpace()
        if base.isEmpty || base.allSatisfy({ $0 == "." }) {
            base = defaultBaseName
        }
        return Self.join(base: base, extension: `extension`)
    }

    /// Why `name` cannot be used as given (WOPI "specific" mode), or `nil` when it can.
    ///
    /// The reason is written for `X-WOPI-InvalidFileNameError` / `X-WOPI-InvalidContainerNameError`.
    public func problem(with name: String) -> String? {
        // Every CheckFileInfo and every child of a listing asks; most names are plain ASCII and fine.
        if isPlainAcceptableASCII(name) { return nil }
        return characterProblem(with: name)
    }

    /// ``problem(with:)`` character by character, as the rules are written: what every name that is not plain,
    /// acceptable ASCII goes through.
    package func characterProblem(with name: String) -> String? {
        if name.isEmpty { return "The name is empty." }
        if name.first!.isWhitespace || name.last!.isWhitespace { return "The name starts or ends with white space." }
        if !allowsLeadingDot, name.hasPrefix(".") { return "The name starts with a dot." }
        if name.allSatisfy({ $0 == "." }) { return "The name is only dots." }
        if let bad = name.first(where: isForbidden) {
            let shown = forbiddenCharacters.contains(bad) ? "'\(bad)'" : "a control character"
            let list = forbiddenCharacters.sorted().map(String.init).joined(separator: " ")
            return "The name contains \(shown), which this host does not allow (not allowed: control characters and "
                + "\(list))."
        }
        if rejectsDeviceNames, Self.isDeviceName(name) {
            return "\"\(name.prefix(while: { $0 != "." }))\" is a Windows device name, which no Windows system can "
                + "store (not allowed: CON, PRN, AUX, NUL, COM1-9, LPT1-9, with or without an extension)."
        }
        let base = Self.split(name).base
        if base.utf16.count > limit {
            return "The name without its extension is \(base.utf16.count) characters long; the limit is \(limit)."
        }
        return nil
    }

    /// Returns `name` if it is free, else the first free `name (1).ext`, `name (2).ext`, ...
    ///
    /// The extension is kept. A base name that already ends in ` (n)` is counted on from there rather than
    /// growing `name (1) (1)`. The stem is shortened when needed so that the numbered base name stays within
    /// ``maximumBaseNameLength``. Gives up after 10,000 tries and uses a random suffix instead.
    /// - Parameter isTaken: whether a name is already in use (called with candidates in order).
    public func uniqueName(for name: String, isTaken: (String) -> Bool) -> String {
        guard isTaken(name) else { return name }
        let parts = Self.split(name)
        let (stem, start) = Self.numberedStem(parts.base)
        func candidate(_ suffix: String) -> String {
            let room = limit - suffix.utf16.count
            let shortStem = Self.truncated(stem, toUTF16Length: max(0, room))
            return Self.join(base: shortStem + suffix, extension: parts.extension)
        }
        for number in (start + 1)...(start + 10_000) {
            let name = candidate(" (\(number))")
            if !isTaken(name) { return name }
        }
        return candidate(" (\(String(UInt64.random(in: .min ... .max), radix: 36)))")
    }

    /// The name to create in WOPI "suggested" mode (PutRelativeFile, CreateChildFile) for `target`, before
    /// collisions are resolved with ``uniqueName(for:isTaken:)``.
    ///
    /// A target that starts with `.` is only an extension, whatever the rules: it is combined with the source
    /// file's base name, or with `defaultBaseName` when there is none (CreateChildFile, or a source such as
    /// `.gitignore`). The result is ``sanitized(_:defaultBaseName:)``.
    /// - Parameters:
    ///   - target: the decoded `X-WOPI-SuggestedTarget`.
    ///   - sourceName: the name of the file PutRelativeFile was called on, with its extension.
    ///   - defaultBaseName: the base name used when there is nothing better.
    public func suggestedName(
        from target: String, sourceName: String?, defaultBaseName: String = Self.defaultBaseName
    ) -> String {
        var name = target.trimmingWhiteSpace()
        if name.hasPrefix(".") {
            let sourceBase = sourceName.map { Self.split(sanitized($0, defaultBaseName: defaultBaseName)).base }
            name = ((sourceBase?.isEmpty ?? true) ? defaultBaseName : sourceBase!) + name
        }
        return sanitized(name, defaultBaseName: defaultBaseName)
    }

    /// Whether `character` must not appear in a name: the forbidden list and control characters.
    func isForbidden(_ character: Character) -> Bool {
        forbiddenCharacters.contains(character)
            || character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Whether `name` is ASCII and ``characterProblem(with:)`` finds nothing wrong with it, decided on its bytes
    /// (in ASCII a byte is a character, but for CR LF, which is refused either way). `false` sends the name to
    /// ``characterProblem(with:)``.
    package func isPlainAcceptableASCII(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, let last = utf8.last, !Self.isASCIIWhiteSpace(first),
            !Self.isASCIIWhiteSpace(last), allowsLeadingDot || first != UInt8(ascii: ".")
        else { return false }
        var onlyDots = true
        var firstDot: Int?
        var lastDot: Int?
        var count = 0
        for byte in utf8 {
            guard byte >= 0x20, byte < 0x7F, !forbiddenBytes.contains(byte) else { return false }
            if byte == UInt8(ascii: ".") {
                if firstDot == nil { firstDot = count }
                lastDot = count
            } else {
                onlyDots = false
            }
            count += 1
        }
        guard !onlyDots else { return false }
        if rejectsDeviceNames, Self.isASCIIDeviceName(utf8.prefix(firstDot ?? count)) { return false }
        // The base name is what precedes the last dot, unless that dot ends the name.
        let baseLength = lastDot.map { $0 == count - 1 ? count : $0 } ?? count
        return baseLength <= limit
    }

    /// `Character.isWhitespace` for an ASCII byte: tab, line feed, vertical tab, form feed, carriage return, space.
    private static func isASCIIWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// ``isDeviceName(_:)`` for the ASCII bytes before the first dot.
    private static func isASCIIDeviceName(_ head: Substring.UTF8View) -> Bool {
        guard head.count == 3 || head.count == 4 else { return false }
        // Upper-cased into a small string (no allocation).
        let upper = String(unsafeUninitializedCapacity: head.count) { buffer in
            for (index, byte) in head.enumerated() {
                buffer[index] = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
            }
            return head.count
        }
        return deviceNames.contains(upper)
    }

    /// Whether the part of `name` before its first `.` is a Windows device name (in any case).
    public static func isDeviceName(_ name: String) -> Bool {
        Self.deviceNames.contains(name.prefix(while: { $0 != "." }).uppercased())
    }

    /// The base-name length limit applied: ``maximumBaseNameLength``, or ``defaultMaximumBaseNameLength`` when that
    /// is `0` or less.
    public var limit: Int {
        maximumBaseNameLength > 0 ? maximumBaseNameLength : Self.defaultMaximumBaseNameLength
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
