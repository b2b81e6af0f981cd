import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIServer
import WOPIStorage

/// `wopi-host user add NAME --password-stdin`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage the host's users.", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a user, or reset an existing user's password.")

        @OptionGroup var data: DataOptions
        @Argument(help: "The user's ID: ASCII letters and digits.") var name: String
        @Flag(name: .long, help: "Read the password from the first line of standard input.") var passwordStdin = false
        @Option(name: .long, help: "The display name.") var displayName: String?
        @Option(name: .long, help: "The sign-in name shown in Office (default: the ID).") var signInName: String?

        func validate() throws {
            guard WOPIUser.isValidID(name) else {
                throw ValidationError("A user ID is 1 to 64 ASCII letters and digits; \"\(name)\" is not.")
            }
            guard passwordStdin else { throw ValidationError("Pass --password-stdin and type the password.") }
        }

        func run() async throws {
            guard let password = readLine(strippingNewline: true), !password.isEmpty else {
                throw ValidationFailure("No password on standard input.")
            }
            let directory = try await data.open()
            let stores = try await directory.stores()
            let users = stores.users
            var user =
                try await users.user(name)
                ?? WOPIUser(
                    id: name, signInName: signInName ?? name, displayName: displayName ?? name, passwordHash: nil)
            if let displayName { user.displayName = displayName }
            if let signInName { user.signInName = signInName }
            user.passwordHash = try PasswordHasher().hash(password)
            try await users.save(user)
            _ = try await stores.storage.rootContainer(forUser: name)
            print("user \(name) saved")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            for user in try await data.open().stores().users.allUsers() {
                print("\(user.id)\t\(user.signInName)\t\(user.displayName)")
            }
        }
    }
}
