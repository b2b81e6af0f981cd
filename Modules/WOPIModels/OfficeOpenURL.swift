public import Foundation

/// The URL that opens a file from your app in Office for iOS / Android (Docs/wopi-protocol.md §11):
/// `<scheme>:<ofv|ofe>|u|<WOPISrc>|d|<service>|e|<user>|n|<name>|a|<App|Web>[|p|<scheme>][|c|<context>]`.
///
/// ```swift
/// let open = OfficeOpenURL(
///     app: .word, mode: .edit, wopiSrc: URL(string: "https://wopi.contoso.com/wopi/files/f1")!,
///     serviceID: "Contoso", userID: "a3243d", fileName: "Q4 plan.docx", passbackScheme: "contoso")
/// open.string
/// // "ms-word:ofe|u|https://wopi.contoso.com/wopi/files/f1|d|Contoso|e|a3243d|n|Q4%20plan.docx|a|App|p|contoso"
/// ```
///
/// The docs only say "the URL should be URL encoded" (§18.13). Choice made here: each value is percent-encoded on
/// its own (see the rules below), the delimiters are not. Letters, digits, `-._~` and `:/?@!$'()*,;=&` stay as
/// they are; `|`, `%`, `#`, `+`, spaces and non-ASCII become UTF-8 `%HH`. This reproduces Microsoft's example
/// byte for byte and keeps every value recoverable. ``init(string:)`` also reads a string that was encoded as a
/// whole (`ofe%7Cu%7C…`). The WOPISrc carries no access token: Office gets one through GetNewAccessToken.
public struct OfficeOpenURL: Sendable, Hashable {
    /// How Office opens the file.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Read-only (`ofv`).
        case view = "ofv"
        /// For editing (`ofe`).
        case edit = "ofe"
    }

    /// What launched Office.
    public enum Launcher: String, Sendable, Hashable, CaseIterable {
        /// A native app (`App`).
        case app = "App"
        /// A website (`Web`).
        case web = "Web"
    }

    /// The Office app that opens the file (picks the scheme).
    public var app: OfficeApp
    /// Read-only or editing.
    public var mode: Mode
    /// The file's WOPISrc, without access token (`|u|`).
    public var wopiSrc: URL
    /// The service identifier (`|d|`).
    public var serviceID: String
    /// The user identifier (`|e|`).
    public var userID: String
    /// The file name with extension (`|n|`).
    public var fileName: String
    /// Native app or website (`|a|`).
    public var launcher: Launcher
    /// Your registered URL scheme, without `:`, for Office's back arrow (`|p|`).
    public var passbackScheme: String?
    /// An opaque string that comes back to you in the passback (`|c|`).
    public var documentContext: String?

    /// Creates an open URL.
    public init(
        app: OfficeApp, mode: Mode, wopiSrc: URL, serviceID: String, userID: String, fileName: String,
        launcher: Launcher = .app, passbackScheme: String? = nil, documentContext: String? = nil
    ) {
        self.app = app
        self.mode = mode
        self.wopiSrc = wopiSrc
        self.serviceID = serviceID
        self.userID = userID
        self.fileName = fileName
        self.launcher = launcher
        self.passbackScheme = passbackScheme
        self.documentContext = documentContext
    }

    /// The URL text in the docs' form, with raw `|` delimiters (for example for Android's `Uri.parse`).
    public var string: String {
        var fields = [
            ("u", wopiSrc.absoluteString), ("d", serviceID), ("e", userID), ("n", fileName), ("a", launcher.rawValue),
        ]
        if let passbackScheme { fields.append(("p", passbackScheme)) }
        if let documentContext { fields.append((OfficeURLFields.contextKey, documentContext)) }
        return OfficeURLFields.build(scheme: app.scheme, mode: mode.rawValue, fields: fields)
    }

    /// The URL, for `UIApplication.open`: ``string`` with the `|` delimiters written as `%7C`, since a Foundation
    /// `URL` cannot hold a raw `|` (`URL(string:)` would encode every `%` again). Values should not contain `|`
    /// themselves (file names cannot, see ``FileNameRules/forbiddenCharacters``); the context, written last, may.
    public var url: URL? { OfficeURLFields.url(string) }

    /// Parses an open URL. Scheme, mode, keys and the `App`/`Web` value are read case-insensitively; unknown keys
    /// are ignored.
    ///
    /// - Throws: ``WOPIFormatError`` when the scheme is not an Office scheme, the mode is not `ofv`/`ofe`, a
    ///   required field (`u`, `d`, `e`, `n`, `a`) is missing, or a value is badly encoded.
    public init(string: String) throws(WOPIFormatError) {
        let format = "Office URL"
        let parsed = try OfficeURLFields.parse(string, format: format)
        guard let app = OfficeApp.allCases.first(where: { $0.scheme == parsed.scheme.lowercased() }) else {
            throw WOPIFormatError(
                .invalidValue, format: format,
                "The scheme \"\(parsed.scheme)\" is not an Office "
                    + "scheme; use ms-word, ms-excel or ms-powerpoint.")
        }
        guard let mode = Mode(rawValue: parsed.mode.lowercased()) else {
            throw WOPIFormatError(
                .invalidValue, format: format,
                "The mode \"\(parsed.mode)\" is neither ofv "
                    + "(view) nor ofe (edit).")
        }
        let source = try parsed.required("u", "WOPISrc", format: format)
        guard let wopiSrc = URL(string: source), wopiSrc.scheme != nil, wopiSrc.host != nil else {
            throw WOPIFormatError(.invalidValue, format: format, "The WOPISrc \"\(source)\" is not an absolute URL.")
        }
        let launcherText = try parsed.required("a", "App or Web", format: format)
        guard let launcher = Launcher.allCases.first(where: { $0.rawValue.lowercased() == launcherText.lowercased() })
        else {
            throw WOPIFormatError(
                .invalidValue, format: format,
                "The |a| value \"\(launcherText)\" is neither "
                    + "App nor Web.")
        }
        self.init(
            app: app, mode: mode, wopiSrc: wopiSrc, serviceID: try parsed.required("d", "service ID", format: format),
            userID: try parsed.required("e", "user ID", format: format),
            fileName: try parsed.required("n", "file name", format: format), launcher: launcher,
            passbackScheme: parsed.value("p"), documentContext: parsed.value(OfficeURLFields.contextKey))
    }
}
