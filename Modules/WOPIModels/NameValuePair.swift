/// A name and a value as they appear in a query string or a header parameter, decoded.
public struct NameValuePair: Sendable, Hashable {
    /// The name as sent.
    public var name: String
    /// The decoded value.
    public var value: String

    /// Creates a pair.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
