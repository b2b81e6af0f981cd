import Foundation
import WOPIAuthorizationServer
import WOPIDeployment
import WOPIServer
import WOPIStorage

/// The demo content `serve` puts in an empty data directory, so a new user can try the host at once.
enum DemoSeed {
    static let user = "demo"
    static let password = "demo"

    static let banner = """
        Seeded a demo user and files:
          user: \(user)   password: \(password)
          files: Welcome.docx, Budget.xlsx, Notes.txt, Documents/
          mint a token: wopi-host token --data <DIR> --user \(user) --file Welcome.docx
        """

    /// What `serve` prepares on a new data directory: the demo user and files with `--demo` (a hint without), and
    /// the demo OAuth clients when there are none.
    static func prepare(_ stores: DeploymentStores, directory: DataDirectory, demo: Bool, dataPath: String) async throws
    {
        if try await stores.users.allUsers().isEmpty {
            if demo {
                try await seed(users: stores.users, storage: stores.storage)
                Console.line(banner)
            } else {
                Console.line(
                    "No users yet: add one with `wopi-host user add NAME --password-stdin --data \(dataPath)`, "
                        + "or start with --demo to try the host with a demo user.")
            }
        }
        if try await stores.oauth.allClients().isEmpty {
            Console.line(try await registerClients(in: stores.oauth, directory: directory))
        }
    }

    /// The demo OAuth clients: Office's (confidential, the CSPP stop URL `https://localhost`) and the `wopi`
    /// CLI's (public, PKCE, loopback). Returns the lines to print.
    static func registerClients(in store: any OAuthStore, directory: DataDirectory) async throws -> String {
        let secret = randomSecret()
        // The secret is 256 random bits, which no one can guess however fast the hash: scrypt's cost is there to
        // slow down guessing human passwords. N = 2^10 instead of the default 2^15 makes each of Office's token
        // requests hash 32 times less (about 3 ms instead of 100), and seeding a data directory faster.
        try await store.saveClient(
            try OAuthClient.confidential(
                id: "office", secret: secret, redirectURIs: ["https://localhost"], name: "Microsoft Office",
                hasher: PasswordHasher(logN: 10)))
        try await store.saveClient(
            try OAuthClient(
                id: "wopi-cli", kind: .public,
                redirectURIs: ["http://127.0.0.1/callback", "http://[::1]/callback"], name: "wopi command line"))
        let secretFile = try directory.writeSecret(secret, named: "office-client-secret")
        return """
            Registered OAuth clients:
              office    confidential, redirect https://localhost, secret in \(secretFile.path)
              wopi-cli  public (PKCE), redirect http://127.0.0.1/callback (any port)
              sign in from a terminal: wopi login <URL>/wopibootstrapper
            """
    }

    /// 32 random bytes, base64url without padding.
    private static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func seed(users: any UserDirectory, storage: any StorageBackend) async throws {
        // The demo password is printed in the banner, so no hashing cost protects it: N = 2^10 keeps each demo
        // sign-in and each seeded data directory 32 times cheaper. `wopi-host user add` hashes at the default cost.
        let hash = try PasswordHasher(logN: 10).hash(password)
        try await users.save(
            WOPIUser(id: user, signInName: "demo@example.com", displayName: "Demo User", passwordHash: hash))
        let root = try await storage.rootContainer(forUser: user)
        for sample in ["Welcome.docx", "Budget.xlsx", "Notes.txt"] {
            guard let url = Bundle.module.url(forResource: sample, withExtension: nil, subdirectory: "Samples") else {
                continue
            }
            _ = try await storage.createFile(
                named: sample, in: root.id, content: try .contentsOfFile(at: url), overwrite: true)
        }
        if try await storage.child(named: "Documents", in: root.id) == nil {
            _ = try await storage.createContainer(named: "Documents", in: root.id)
        }
    }
}
