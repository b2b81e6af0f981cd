import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIModels
import WOPIServer
import WOPIStorage

/// `wopi-host token --user NAME --file PATH`: prints a WOPISrc and an access token for a file.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print {\"wopiSrc\", \"accessToken\", \"accessTokenTTL\"} for a file, usable at once against `serve`."
    )

    @OptionGroup var data: DataOptions
    @Option(name: .long, help: "The user the token acts for.") var user: String
    @Option(
        name: .long,
        help:
            "The file's path below the user's root, e.g. Welcome.docx, or a file shared with them: 'Shared with me/…'.")
    var file: String
    @Flag(name: .long, help: "Mint a view-only token (also the most a view-only share allows).") var view = false
    @Option(name: .long, help: "The token lifetime in seconds.") var ttl: Int = 36_000
    @Option(name: .long, help: "The host's public URL (default: the URL of the running `serve` on this --data).")
    var publicURL: String?

    func run() async throws {
        let directory = try await data.open()
        let stores = try await directory.stores()
        guard let base = publicURL ?? directory.runningServerURL() else {
            throw ValidationFailure("No running `wopi-host serve` on \(data.data); start it or pass --public-url.")
        }
        guard let caller = try await stores.users.user(user) else { throw ValidationFailure("No user \(user).") }
        let storage = stores.storage
        let root = try await storage.rootContainer(forUser: user)
        let shared = try await SharedWithMe.item(
            atPath: file, for: caller, policy: stores.sharingPolicy, storage: storage)
        let found: StorageItem? =
            if let shared { shared } else { try? await storage.item(atPath: file, under: root.id) }
        guard case .file(let target)? = found else {
            throw ValidationFailure("\(user) has no file \(file) (a folder, or nothing, is there).")
        }
        let access = try await ExampleDecisions.host(stores, directory).access(of: caller, to: .file(target))
        guard access.permission > .none else { throw ValidationFailure("\(user) may not open \(file).") }
        let permission = min(access.permission, view ? .view : .edit)
        let expiresAt = Date().addingTimeInterval(TimeInterval(ttl))
        let token = AccessTokenSigner(key: try await stores.keys.key(named: "token")).mint(
            AccessToken(user: caller, resource: .file(target.id), expiresAt: expiresAt, permission: permission))
        try await stores.audit?.record(
            AuditEvent(
                .tokenMinted, at: Date(), userID: user, itemID: target.id.rawValue,
                details: ["kind": "wopi", "via": "wopi-host token", "permission": "\(permission)"]))
        let output = TokenOutput(
            wopiSrc: WOPIURLs(publicURL: base, configuration: WOPIHostConfiguration()).file(target.id),
            accessToken: token, accessTokenTTL: EpochMilliseconds.from(expiresAt))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(output), as: UTF8.self))
    }

    struct TokenOutput: Encodable {
        var wopiSrc: String
        var accessToken: String
        var accessTokenTTL: Int64
    }
}
