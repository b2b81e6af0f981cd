extension WOPIRequest {
    /// The header `name` as a number from 0 to `Int64.max` (``RequestNumber/nonNegative(_:)``): `nil` when the
    /// request has no such header.
    ///
    /// - Throws: a `400` naming the header when its value is not such a number.
    package func nonNegativeNumber(_ name: String) throws(WOPIHTTPError) -> Int64? {
        guard let text = header(name) else { return nil }
        guard let value = RequestNumber.nonNegative(text) else {
            throw .badRequest("\(name) must be a whole number from 0 to \(Int64.max), in decimal digits.")
        }
        return value
    }
}
