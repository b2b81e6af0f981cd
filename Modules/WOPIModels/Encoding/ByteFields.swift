extension Substring {
    /// Calls `body` with each slice of this text between the bytes `separator` (an ASCII byte: `/`, `|`, `&`), in
    /// order, found byte by byte, not character by character; with `omittingEmpty`, empty slices are skipped. No
    /// array, no new strings.
    ///
    /// Not generic, so that callers in other modules run code specialised for `Substring`.
    package func forEachField(
        separatedBy separator: UInt8, omittingEmpty: Bool, _ body: (Substring) -> Void
    ) {
        let bytes = utf8
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: separator) ?? bytes.endIndex
            if !omittingEmpty || start < end { body(self[start..<end]) }
            guard end < bytes.endIndex else { return }
            start = bytes.index(after: end)
        }
    }

    /// The slices ``forEachField(separatedBy:omittingEmpty:_:)`` finds, in one array.
    package func fields(separatedBy separator: UInt8, omittingEmpty: Bool) -> [Substring] {
        var fields: [Substring] = []
        forEachField(separatedBy: separator, omittingEmpty: omittingEmpty) { fields.append($0) }
        return fields
    }
}

extension String {
    /// ``Substring/fields(separatedBy:omittingEmpty:)`` of the whole string.
    package func fields(separatedBy separator: UInt8, omittingEmpty: Bool) -> [Substring] {
        self[...].fields(separatedBy: separator, omittingEmpty: omittingEmpty)
    }
}
