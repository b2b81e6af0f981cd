public import Foundation
import HTTPTypes
import Logging
import WOPIHTTPEdge
public import WOPIModels

extension WOPIClient {
    /// Calls Bootstrap without a token and returns the `WWW-Authenticate` challenge of the `401` (Docs/wopi-protocol.md
    /// §9.2): where to sign in (`authorization_uri`) and where to redeem the code (`tokenIssuance_uri`).
    ///
    /// Malformed optional parameters (`UrlSchemes`, `providerId`) are logged as warnings and left out (see
    /// ``BootstrapChallenge/warnings``).
    /// - Throws: ``WOPIClientError/Code/protocolViolation`` when the host does not answer `401` with a
    ///   readable Bearer challenge; another ``WOPIClientError`` for transport failures.
    public func bootstrapChallenge() async throws -> BootstrapChallenge {
        let url = try requireBootstrapper()
        let response = try await transmit(
            WOPITransportRequest(method: .get, url: url, timeout: configuration.requestTimeout), call: "Bootstrap")
        await Self.discard(response.body)
        guard response.status.code == 401 else {
            throw WOPIClientError(
                .protocolViolation,
                "Bootstrap without a token answered HTTP \(response.status.code), not 401 with a challenge; is "
                    + "\(url.absoluteString) a WOPI bootstrapper?", status: response.status.code)
        }
        let challenge = try Self.challenge(in: response.headers, status: 401)
        for warning in challenge.warnings {
            logger.warning("The bootstrapper's challenge: \(warning)", metadata: ["bootstrapper": "\(url)"])
        }
        return challenge
    }

    /// Authenticated Bootstrap: the signed-in user's profile and ecosystem URL (Docs/wopi-protocol.md §9.3).
    public func bootstrap() async throws -> BootstrapInfo {
        try await bootstrapperCall(operation: nil, name: "Bootstrap").bootstrap
    }

    /// GetRootContainer through the bootstrapper (`GET_ROOT_CONTAINER`): the profile and the user's root container.
    public func bootstrapRootContainer() async throws -> (bootstrap: BootstrapInfo, root: WOPIContainerPointer) {
        let response = try await bootstrapperCall(
            operation: WOPIEcosystemOperation.getRootContainer, name: "GetRootContainer (bootstrapper)")
        guard let root = response.rootContainerInfo else {
            throw WOPIClientError(
                .protocolViolation,
                "GetRootContainer (bootstrapper) answered without RootContainerInfo; the host "
                    + "ignores the shortcut, which Office for iOS and Android require.")
        }
        return (response.bootstrap, try WOPIContainerPointer(root))
    }

    /// GetNewAccessToken (`GET_NEW_ACCESS_TOKEN` with `X-WOPI-WopiSrc`): a fresh WOPI token for a file or
    /// container, from the OAuth sign-in.
    ///
    /// - Parameter wopiSrc: the WOPISrc of a file or the WOPI URL of a container, without a token.
    public func newAccessToken(for wopiSrc: URL) async throws -> AccessTokenInfo {
        let response = try await bootstrapperCall(
            operation: WOPIEcosystemOperation.getNewAccessToken, name: "GetNewAccessToken",
            headers: [.wopiSrc: wopiSrc.absoluteString])
        guard let info = response.accessTokenInfo, !info.accessToken.isEmpty else {
            throw WOPIClientError(.protocolViolation, "GetNewAccessToken answered without AccessTokenInfo.")
        }
        return info
    }

    /// One authenticated bootstrapper call; a `401` invalidates the OAuth token and retries once.
    func bootstrapperCall(operation: String?, name: String, headers extra: HTTPFields = [:]) async throws
        -> BootstrapResponse
    {
        let url = try requireBootstrapper()
        guard let tokenProvider else {
            throw WOPIClientError(
                .signInRequired, "\(name): not signed in to \(url.host ?? "the host"); sign in first.",
                challenge: try? await bootstrapChallenge())
        }
        var headers = extra
        if let operation { headers[.wopiEcosystemOperation] = operation }
        headers[.accept] = "application/json"
        var rejected: String?
        var challenge: BootstrapChallenge?
        for attempt in 0..<2 {
            let token: String
            do {
                token = try await tokenProvider.accessToken()
            } catch {
                throw WOPIClientError(
                    .signInRequired, "\(name): no OAuth access token for \(url.host ?? "the host"); sign in again.",
                    underlying: error)
            }
            if token == rejected { break }
            headers[.authorization] = "Bearer \(token)"
            let request = WOPITransportRequest(
                method: operation == nil ? .get : .post, url: url, headers: headers,
                timeout: configuration.requestTimeout)
            let response = try await transmit(request, call: name)
            if response.status.code == 401 {
                await Self.discard(response.body)
                await tokenProvider.invalidate(accessToken: token)
                rejected = token
                challenge = try? Self.challenge(in: response.headers, status: 401)
                if attempt == 1 {
                    throw WOPIClientError(
                        .signInRequired,
                        "\(name): the bootstrapper rejected the OAuth token even after a refresh; sign in again.",
                        status: 401, challenge: challenge)
                }
                continue
            }
            guard (200..<300).contains(response.status.code) else {
                throw await error(for: response, what: name, renewable: false)
            }
            return try await decode(BootstrapResponse.self, from: response, call: name)
        }
        throw WOPIClientError(
            .signInRequired, "\(name): the OAuth token was rejected and no new one is available; sign in again.",
            status: 401, challenge: challenge)
    }

    private func requireBootstrapper() throws -> URL {
        guard let bootstrapperURL else {
            throw WOPIClientError(
                .signInRequired, "This client has no bootstrapper URL; create it with the host's …/wopibootstrapper.")
        }
        return bootstrapperURL
    }

    /// Parses the Bearer challenge of a `401`.
    static func challenge(in headers: HTTPFields, status: Int) throws -> BootstrapChallenge {
        let values = headers[values: .wwwAuthenticate]
        guard !values.isEmpty else {
            throw WOPIClientError(
                .protocolViolation,
                "The bootstrapper answered 401 without WWW-Authenticate; it must send a Bearer "
                    + "challenge with authorization_uri and tokenIssuance_uri.", status: status)
        }
        do {
            return try BootstrapChallenge.parse(headerValues: values)
        } catch {
            throw WOPIClientError(
                .protocolViolation, "The bootstrapper's WWW-Authenticate challenge is unreadable: \(error)",
                status: status, underlying: error)
        }
    }
}
