import Foundation
import WOPIOAuth

/// `wopi`'s configuration directory: `$XDG_CONFIG_HOME/wopi`, else `~/.config/wopi`, mode `0700`.
///
/// - `places.json`: the places signed in to and the current one (no secrets).
/// - `tokens/`: the OAuth tokens per place, one `0600` file each (`FileTokenStore`).
/// - `locks.json`: the lock IDs `wopi lock` took, so `wopi put` and `wopi unlock` can use them.
struct ConfigDirectory: Sendable {
    struct Places: Codable {
        var current: String?
        var places: [String: PlaceRecord] = [:]
    }

    let url: URL

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            url = URL(fileURLWithPath: xdg).appendingPathComponent("wopi")
        } else {
            url = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/wopi")
        }
    }

    var tokenStore: FileTokenStore { FileTokenStore(directory: url.appendingPathComponent("tokens")) }

    func loadPlaces() throws -> Places {
        try load(Places.self, "places.json") ?? Places()
    }

    func savePlaces(_ places: Places) throws {
        try save(places, "places.json")
    }

    /// The place named `name`, or the current one.
    func place(named name: String?) throws -> PlaceRecord {
        let places = try loadPlaces()
        guard let key = name ?? places.current, let place = places.places[key] else {
            throw CLIFailure(
                .notSignedIn,
                name.map { "No place named \($0); run `wopi login BOOTSTRAPPER_URL --name \($0)`." }
                    ?? "Not signed in; run `wopi login https://host/wopibootstrapper` first.")
        }
        return place
    }

    func loadLocks() throws -> [String: String] {
        try load([String: String].self, "locks.json") ?? [:]
    }

    func saveLocks(_ locks: [String: String]) throws {
        try save(locks, "locks.json")
    }

    private func load<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        let file = url.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: file) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw CLIFailure(.other, "\(file.path) is damaged (\(error)); delete it and sign in again.")
        }
    }

    private func save<T: Encodable>(_ value: T, _ name: String) throws {
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let file = url.appendingPathComponent(name)
        try encoder.encode(value).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}
