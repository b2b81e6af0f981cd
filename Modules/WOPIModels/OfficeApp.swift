/// An Office for iOS / Android app and its URL schemes, package names and file types (Docs/wopi-protocol.md §10.5, §11,
/// §14.3).
public enum OfficeApp: String, Sendable, Hashable, CaseIterable {
    /// Microsoft Word.
    case word
    /// Microsoft Excel.
    case excel
    /// Microsoft PowerPoint.
    case powerpoint

    /// The scheme that opens a file in the app (`ms-word`, `ms-excel`, `ms-powerpoint`), without `:`.
    public var scheme: String { "ms-\(rawValue)" }

    /// The scheme your app returns to after app-to-app sign-in on iOS (`ms-word-tp`, ...), without `:`.
    public var returnScheme: String { "ms-\(rawValue)-tp" }

    /// The return scheme of the unified Microsoft 365 (Office) app, used for any other `app=` value.
    public static let officeMobileReturnScheme = "ms-officemobile-tp"

    /// The scheme that tells, through `canOpenURL`, that the installed app supports WOPI (`ms-word-wopi-support-1605`,
    /// ...). For detection only, never for launching; list it in `LSApplicationQueriesSchemes`.
    public var supportDetectionScheme: String { "ms-\(rawValue)-wopi-support-1605" }

    /// The Android package name (`com.microsoft.office.word`, ...).
    public var androidPackageName: String { "com.microsoft.office.\(rawValue)" }

    /// The Google Play page of the Android app.
    public var googlePlayURL: String { "https://play.google.com/store/apps/details?id=\(androidPackageName)" }

    /// Install link for Microsoft 365 on iOS.
    public static let iOSInstallURL = "https://aka.ms/m365ios3p"
    /// Install link for Microsoft 365 on Android.
    public static let androidInstallURL = "https://aka.ms/m365aos3p"

    /// The current file types the app opens on mobile (lower case, without the dot).
    public var fileExtensions: [String] {
        switch self {
        case .word: ["docx", "docm", "dotm", "dotx"]
        case .excel: ["xlsx", "xltx", "xlsb", "xlsm"]
        case .powerpoint: ["pptx", "ppsx", "potm", "potx", "ppsm", "pptm", "thmx"]
        }
    }

    /// Legacy file types the app opens by converting them to a new file beside the original.
    public var legacyFileExtensions: [String] {
        switch self {
        case .word: ["doc", "dot", "odt"]
        case .excel: ["xls", "csv", "ods"]
        case .powerpoint: ["ppt", "pps", "pot", "odp"]
        }
    }

    /// The app for a file extension (case-insensitive, with or without the leading dot), or `nil`.
    public init?(fileExtension: String) {
        let ext = String(fileExtension.drop { $0 == "." }).lowercased()
        guard
            let app = Self.allCases.first(where: {
                $0.fileExtensions.contains(ext) || $0.legacyFileExtensions.contains(ext)
            })
        else { return nil }
        self = app
    }

    /// The app for a file name, by its extension, or `nil`.
    public init?(fileName: String) {
        guard let ext = FileNameRules.split(fileName).extension else { return nil }
        self.init(fileExtension: ext)
    }

    /// Whether `fileExtension` is a legacy type that Office converts to a new file.
    public static func isLegacy(fileExtension: String) -> Bool {
        let ext = String(fileExtension.drop { $0 == "." }).lowercased()
        return allCases.contains { $0.legacyFileExtensions.contains(ext) }
    }

    /// The app named by the `app=` parameter of an app-to-app sign-in request (`word`, `Excel`, ...), or `nil`.
    public init?(appParameter: String) {
        self.init(rawValue: appParameter.trimmingWhiteSpace().lowercased())
    }

    /// The iOS return scheme for an `app=` value: the app's `-tp` scheme, or ``officeMobileReturnScheme`` for any
    /// other or missing value (the unified Microsoft 365 app; the docs do not list its `app=` value).
    public static func returnScheme(forAppParameter value: String?) -> String {
        value.flatMap { OfficeApp(appParameter: $0) }?.returnScheme ?? officeMobileReturnScheme
    }
}
