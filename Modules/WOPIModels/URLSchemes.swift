import Foundation

/// The `UrlSchemes` parameter of the bootstrapper's `WWW-Authenticate` challenge (Docs/wopi-protocol.md §9.2): where
/// Office should try app-to-app sign-in, per platform, in order.
///
/// On the wire it is URL-encoded JSON: `{"iOS":["contoso","contoso-EMM"],"Android":["100","com.contoso.app",
/// "com.contoso.app.AuthActivity"]}`. ``encodedValue`` writes `iOS`, then `Android`, then other platforms in
/// name order, and percent-encodes everything outside RFC 3986's unreserved characters, which reproduces the
/// docs' sample exactly.
public struct URLSchemes: Sendable, Hashable {
    /// iOS URL schemes of your app (without `:`), tried in order.
    public var iOS: [String]
    /// Android activities, tried in order.
    public var android: [AndroidAuthActivity]
    /// Lists for other platforms (for example `"UWP"`), passed through unchanged.
    public var otherPlatforms: [String: [String]]

    /// Creates the value. Leave a platform's list empty to leave the platform out.
    public init(iOS: [String] = [], android: [AndroidAuthActivity] = [], otherPlatforms: [String: [String]] = [:]) {
        self.iOS = iOS
        self.android = android
        self.otherPlatforms = otherPlatforms
    }

    /// Whether no platform has an entry.
    public var isEmpty: Bool {
        iOS.isEmpty && android.isEmpty && otherPlatforms.values.allSatisfy(\.isEmpty)
    }

    /// The platform lists as in the JSON, in wire order (`iOS`, `Android`, then the others by name).
    public var platforms: [(platform: String, entries: [String])] {
        var result: [(platform: String, entries: [String])] = []
        if !iOS.isEmpty { result.append(("iOS", iOS)) }
        if !android.isEmpty {
            result.append(
                ("Android", android.flatMap { [String($0.minimumVersionCode), $0.packageName, $0.authActivityName] }))
        }
        for key in otherPlatforms.keys.sorted() where !(otherPlatforms[key] ?? []).isEmpty {
            result.append((key, otherPlatforms[key]!))
        }
        return result
    }

    /// The JSON text, compact, in wire order.
    public var json: String {
        let members = platforms.map {
            Self.jsonString($0.platform) + ":[" + $0.entries.map(Self.jsonString).joined(separator: ",") + "]"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The value for the challenge: ``json``, percent-encoded.
    public var encodedValue: String {
        PercentEncoding.encode(json)
    }

    /// Reads a `UrlSchemes` value: URL-encoded JSON, or plain JSON (starting with `{`).
    ///
    /// Platform names are matched case-insensitively (`ios`, `Android`).
    /// - Throws: ``WOPIFormatError`` when the value is not a JSON object of string lists, or the Android list is
    ///   not a sequence of (integer version code, package, activity) triples.
    public init(encodedValue: String) throws(WOPIFormatError) {
        let trimmed = encodedValue.trimmingWhiteSpace()
        let text = trimmed.hasPrefix("{") ? trimmed : PercentEncoding.decode(trimmed)
        guard let text, let data = text.data(using: .utf8),
            let object = try? JSONDecoder().decode([String: [String]].self, from: data)
        else {
            throw WOPIFormatError(
                .malformed, format: "UrlSchemes",
                "Expected URL-encoded JSON mapping platform "
                    + "names to lists of strings, for example %7B%22iOS%22%3A%5B%22contoso%22%5D%7D.")
        }
        try self.init(platforms: object)
    }

    /// Creates the value from decoded JSON.
    ///
    /// - Throws: ``WOPIFormatError`` when the Android list is not made of (version code, package, activity)
    ///   triples.
    public init(platforms: [String: [String]]) throws(WOPIFormatError) {
        self.init()
        for (platform, entries) in platforms {
            switch platform.lowercased() {
            case "ios": iOS += entries
            case "android": android += try Self.androidTriples(entries)
            default: otherPlatforms[platform, default: []] += entries
            }
        }
    }

    private static func androidTriples(_ entries: [String]) throws(WOPIFormatError) -> [AndroidAuthActivity] {
        guard entries.count % 3 == 0 else {
            throw WOPIFormatError(
                .invalidValue, format: "UrlSchemes",
                "The Android list has \(entries.count) "
                    + "entries; it must be triples of VersionCode, PackageName, AuthActivityName.")
        }
        var result: [AndroidAuthActivity] = []
        for start in stride(from: 0, to: entries.count, by: 3) {
            guard let code = Int(entries[start].trimmingWhiteSpace()) else {
                throw WOPIFormatError(
                    .invalidValue, format: "UrlSchemes",
                    "The Android version code "
                        + "\"\(entries[start])\" is not an integer; each triple starts with the version code.")
            }
            result.append(
                .init(minimumVersionCode: code, packageName: entries[start + 1], authActivityName: entries[start + 2]))
        }
        return result
    }

    private static func jsonString(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
