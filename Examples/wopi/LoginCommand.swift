import ArgumentParser
import Foundation
import WOPIClient
import WOPIClientOAuth
import WOPIModels
import WOPIOAuth

/// `wopi login BOOTSTRAPPER_URL`: signs in through the browser and remembers the place.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a WOPI host through your browser and remember it as a place.",
        discussion: """
            Calls the bootstrapper without a token, reads its 401 challenge (authorization_uri, \
            tokenIssuance_uri), opens the authorization page in your browser ($BROWSER first, then xdg-open or \
            open), receives the answer on a loopback address (127.0.0.1, any port) with PKCE, and redeems the code. \
            Works with any RFC 6749 server that answers the bootstrapper's challenge.
            """)

    @Argument(help: "The host's bootstrapper URL, e.g. https://wopi.example.com/wopibootstrapper.")
    var bootstrapperURL: String

    @Option(name: .long, help: "The OAuth client ID registered for this tool.")
    var clientID = "wopi-cli"

    @Option(name: .long, help: "The scope to ask for (repeatable); default: the server's.")
    var scope: [String] = []

    @Option(name: .long, help: "The name to remember the place by; default: the host name.")
    var name: String?

    @Option(name: .long, help: "How long to wait for the sign-in to finish, in seconds.")
    var timeout = 300

    @Flag(name: .long, help: "Print the result as one line of JSON.")
    var json = false

    func validate() throws {
        guard let url = URL(string: bootstrapperURL), url.scheme == "https" || url.scheme == "http", url.host != nil
        else { throw ValidationError("\(bootstrapperURL) is not an http(s) URL.") }
    }

    func run() async throws {
        let bootstrapper = URL(string: bootstrapperURL)!
        let placeName =
            name
            ?? [bootstrapper.host, bootstrapper.port.map(String.init)].compactMap { $0 }.joined(
                separator: ":")
        let config = ConfigDirectory()
        let transport = Connection.transport()
        do {
            let anonymous = WOPIClient(transport: transport, bootstrapper: bootstrapper, logger: .cli)
            let challenge = try await anonymous.bootstrapChallenge()
            let oauth = OAuthClientConfiguration(
                clientID: clientID, authorizationEndpoint: challenge.authorizationURI,
                tokenEndpoint: challenge.tokenIssuanceURI, scopes: scope)
            Console.error("Opening \(challenge.authorizationURI.host ?? "the sign-in page") in your browser…")
            // One HTTP client for WOPI and the token endpoint; the loopback receiver is the only other stack.
            let tokenTransport = AsyncHTTPClientOAuthTransport(client: transport.client)
            let authorizer = NativeAppAuthorizer(transport: tokenTransport, timeout: .seconds(timeout), logger: .cli)
            let tokens = try await authorizer.authorize(configuration: oauth, userAgent: FallbackUserAgent())
            let session = OAuthSession(
                client: TokenEndpointClient(configuration: oauth, transport: tokenTransport, logger: .cli),
                store: config.tokenStore, key: placeName)
            try await session.signIn(with: tokens)
            let client = WOPIClient(
                transport: transport, bootstrapper: bootstrapper,
                tokenProvider: OAuthSessionTokenProvider(session: session), logger: .cli)
            let place = try await client.addPlace()
            let record = PlaceRecord(
                name: placeName, bootstrapperURL: bootstrapper, clientID: clientID, scopes: scope,
                authorizationEndpoint: challenge.authorizationURI,
                tokenEndpoint: tokens.tokenEndpoint ?? challenge.tokenIssuanceURI, providerID: challenge.providerID,
                userID: place.bootstrap.userID, signInName: place.bootstrap.signInName,
                userFriendlyName: place.bootstrap.userFriendlyName)
            var places = try config.loadPlaces()
            places.places[placeName] = record
            places.current = placeName
            try config.savePlaces(places)
            try await transport.shutdown()
            if json {
                try Console.json(
                    LoginOutput(
                        place: placeName, userID: record.userID, signInName: record.signInName, root: place.root.name))
            } else {
                Console.line(
                    "Signed in to \(placeName) as \(record.signInName)"
                        + (record.userFriendlyName.map { " (\($0))" } ?? "") + ".")
            }
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    struct LoginOutput: Encodable {
        var place: String
        var userID: String
        var signInName: String
        var root: String
    }
}
