public import Foundation

/// The URL Office for iOS opens when the user taps its back arrow (Docs/wopi-protocol.md §11):
/// `<your scheme>:ofe|u|<URL>|z|<yes|no>|c|<document context>`.
///
/// Values are read and written with the encoding rules of ``OfficeOpenURL``; `c` takes the rest of the string,
/// so a context that comes back with raw `|` characters stays whole.
public struct OfficePassbackURL: Sendable, Hashable {
    /// Your URL scheme, without `:`.
    public var scheme: String
    /// The mode token (`ofe` in the docs).
    public var mode: OfficeOpenURL.Mode
    /// The document's URL (`|u|`).
    public var documentURL: String
    /// Whether Office still has an upload pending (`|z|yes`).
    public var uploadPending: Bool
    /// The context you passed in the open URL (`|c|`).
    public var documentContext: String?

    /// Creates a passback URL.
    public init(
        scheme: String, mode: OfficeOpenURL.Mode = .edit, documentURL: String, uploadPending: Bool,
        documentContext: String? = nil
    ) {
        self.scheme = scheme
        self.mode = mode
        self.documentURL = documentURL
        self.uploadPending = uploadPending
        self.documentContext = documentContext
    }

    /// The URL text.
    public var string: String {
        var fields = [("u", documentURL), ("z", uploadPending ? "yes" : "no")]
        if let documentContext { fields.append((OfficeURLFields.contextKey, documentContext)) }
        return OfficeURLFields.build(scheme: scheme, mode: mode.rawValue, fields: fields)
    }

    /// The URL, with the `|` delimiters written as `%7C` (see ``OfficeOpenURL/url``).
    public var url: URL? { OfficeURLFields.url(string) }

    /// Parses a passback URL. A missing `|z|` means no upload pending.
    ///
    /// - Throws: ``WOPIFormatError`` when the layout is wrong, the mode is not `ofv`/`ofe`, `|u|` is missing, or
    ///   `|z|` is not `yes` or `no`.
    public init(string: String) throws(WOPIFormatError) {
        let format = "Office passback URL"
        let parsed = try OfficeURLFields.parse(string, format: format)
        guard let mode = OfficeOpenURL.Mode(rawValue: parsed.mode.lowercased()) else {
            throw WOPIFormatError(.invalidValue, format: format, "The mode \"\(parsed.mode)\" is neither ofv nor ofe.")
        }
        let pending: Bool
        switch parsed.value("z")?.lowercased() {
        case nil, "no", "false": pending = false
        case "yes", "true": pending = true
        case let other?:
            throw WOPIFormatError(.invalidValue, format: format, "The |z| value \"\(other)\" is neither yes nor no.")
        }
        self.init(
            scheme: parsed.scheme, mode: mode, documentURL: try parsed.required("u", "document URL", format: format),
            uploadPending: pending, documentContext: parsed.value(OfficeURLFields.contextKey))
    }
}
