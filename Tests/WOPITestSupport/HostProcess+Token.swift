public import Foundation

/// What `wopi-host token` prints: a WOPISrc and an access token for it.
public struct MintedToken: Decodable, Sendable {
    /// The file's WOPISrc.
    public var wopiSrc: String
    /// The WOPI access token.
    public var accessToken: String
    /// Its expiry, in epoch milliseconds (`access_token_ttl`).
    public var accessTokenTTL: Int64
}

extension HostProcess {
    /// Runs `wopi-host token` for `file` of `user` in the data directory `data` (with `--view` when `view`) and
    /// decodes what it prints.
    public static func token(data: URL, user: String = "demo", file: String, ttl: Int? = nil, view: Bool = false)
        async throws -> MintedToken
    {
        let json = try await run(
            ["token", "--data", data.path, "--user", user, "--file", file] + (ttl.map { ["--ttl", String($0)] } ?? [])
                + (view ? ["--view"] : []))
        return try JSONDecoder().decode(MintedToken.self, from: Data(json.utf8))
    }
}
