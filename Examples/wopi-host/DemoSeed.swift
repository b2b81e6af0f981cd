import Foundation
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

    static func seed(users: any UserDirectory, storage: any StorageBackend) async throws {
        let hash = try PasswordHasher().hash(password)
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
