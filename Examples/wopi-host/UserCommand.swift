import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIServer
import WOPIStorage

/// `wopi-host user add NAME --password-stdin`, `user passwd NAME --password-stdin`, `user list`.
///
/// A new password ends everything issued under the old one: the user's credential stamp (`WOPIUser.credentialStamp`,
/// derived from the password hash) is in every WOPI access token, host page session and OAuth code and token, and
/// each is refused once it no longer matches.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage the host's users.", subcommands: [Add.self, Passwd.self, List.self])

    /// The first line of standard input, the password.
    static func readPassword() throws -> String {
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw ValidationFailure("No password on standard input.")
        }
        return password
    }

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
            let password = try UserCommand.readPassword()
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

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a user's password; the user's sessions and tokens stop working, on every host.")

        @OptionGroup var data: DataOptions
        @Argument(help: "The user's ID.") var name: String
        @Flag(name: .long, help: "Read the new password from the first line of standard input.")
        var passwordStdin = false

        func validate() throws {
            guard passwordStdin else { throw ValidationError("Pass --password-stdin and type the new password.") }
        }

        func run() async throws {
            let password = try UserCommand.readPassword()
            let users = try await data.open().stores().users
            guard var user = try await users.user(name) else {
                throw ValidationFailure("No user \(name); add one with `wopi-host user add \(name) --password-stdin`.")
            }
            user.passwordHash = try PasswordHasher().hash(password)
            try await users.save(user)
            print("password of \(name) changed: its sessions, access and refresh tokens are revoked")
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
