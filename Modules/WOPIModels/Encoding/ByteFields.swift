extension Substring {
    /// The slices of this text between the bytes `separator` (an ASCII byte: `/`, `|`, `&`), found byte by byte,
    /// not character by character; with `omittingEmpty`, empty slices are left out. One array, no new strings.
    ///
    /// Not generic, so that callers in other modules run code specialised for `Substring`.
    package func fields(separatedBy separator: UInt8, omittingEmpty: Bool) -> [Substring] {
        var fields: [Substring] = []
        let bytes = utf8
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: separator) ?? bytes.endIndex
            if !omittingEmpty || start < end { fields.append(self[start..<end]) }
            guard end < bytes.endIndex else { return fields }
            start = bytes.index(after: end)
        }
    }
}

extension String {
    /// ``Substring/fields(separatedBy:omittingEmpty:)`` of the whole string.
    package func fields(separatedBy separator: UInt8, omittingEmpty: Bool) -> [Substring] {
        self[...].fields(separatedBy: separator, omittingEmpty: omittingEmpty)
    }
}
