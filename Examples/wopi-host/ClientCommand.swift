import ArgumentParser
import Foundation
import WOPIAuthorizationServer
import WOPIDeployment
import WOPIServer

/// `wopi-host client add ID --redirect-uri URI… (--secret-stdin | --public)`: registers OAuth clients.
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client", abstract: "Manage the OAuth clients that may sign users in (Office, native apps).",
        subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an OAuth client, or replace the one with the same ID.",
            discussion: """
                Office (CSPP) is a confidential client: give it the ID and secret you send Microsoft at onboarding \
                and the redirect URI agreed there, for example
                  openssl rand -base64 32 | wopi-host client add office --redirect-uri https://localhost --secret-stdin
                A native app is a public client and must use PKCE; its redirect URI is a loopback URI \
                (http://127.0.0.1/callback, any port) or a reverse-domain scheme (com.example.app:/oauth).
                """)

        @OptionGroup var data: DataOptions
        @Argument(help: "The client ID: 1 to 128 characters of A-Z a-z 0-9 - . _ ~.") var id: String
        @Option(name: .customLong("redirect-uri"), help: "A redirect URI; repeat for several.") var redirectURIs:
            [String] = []
        @Flag(name: .long, help: "Read the client secret from the first line of standard input (confidential client).")
        var secretStdin = false
        @Flag(name: .customLong("public"), help: "A public client (native app): no secret, PKCE required.")
        var isPublic = false
        @Option(name: .long, help: "The name shown on the sign-in page (default: the ID).") var name: String?

        func validate() throws {
            guard secretStdin != isPublic else {
                throw ValidationError("Pass exactly one of --secret-stdin (confidential client) or --public.")
            }
            guard !redirectURIs.isEmpty else { throw ValidationError("Pass at least one --redirect-uri.") }
            do {
                guard OAuthClient.isValidID(id) else {
                    throw ValidationError(
                        "A client ID is 1 to 128 characters of A-Z a-z 0-9 - . _ ~; \"\(id)\" is not.")
                }
                for uri in redirectURIs { try OAuthClient.validateRedirectURI(uri) }
            } catch let error as OAuthRegistrationError {
                throw ValidationError(error.message)
            }
        }

        func run() async throws {
            let client: OAuthClient
            if secretStdin {
                guard let secret = readLine(strippingNewline: true), !secret.isEmpty else {
                    throw ValidationFailure("No client secret on standard input.")
                }
                client = try OAuthClient.confidential(id: id, secret: secret, redirectURIs: redirectURIs, name: name)
            } else {
                client = try OAuthClient(id: id, kind: .public, redirectURIs: redirectURIs, name: name)
            }
            try await data.open().stores().oauth.saveClient(client)
            print("client \(id) saved (\(isPublic ? "public" : "confidential"))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the OAuth clients.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            for client in try await data.open().stores().oauth.allClients() {
                print(
                    "\(client.id)\t\(client.isPublic ? "public" : "confidential")\t\(client.redirectURIs.joined(separator: " "))"
                )
            }
        }
    }
}
