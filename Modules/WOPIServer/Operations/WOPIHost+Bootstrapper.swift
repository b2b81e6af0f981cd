import Foundation
import HTTPTypes
import Logging
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// The bootstrapper (Docs/wopi-protocol.md §9): Bootstrap, and the GET_ROOT_CONTAINER, GET_NEW_ACCESS_TOKEN and
    /// GET_WOPI_SRC_WITH_ACCESS_TOKEN shortcuts, authenticated by an OAuth access token.
    func bootstrap(_ request: WOPIRequest, shortcut: String?) async throws -> WOPIResponse {
        guard let bootstrapper else {
            throw WOPIHTTPError.notFound("This host has no bootstrapper configured.")
        }
        let base = publicBase(for: request)
        guard let token = request.bearerToken,
            let userID = try await bootstrapper.verifier.userID(forAccessToken: token),
            let user = try await users.user(userID)
        else {
            var error = WOPIHTTPError.unauthorized("Sign in: the OAuth access token is missing, expired or revoked.")
            error.headers[.wwwAuthenticate] = try challenge(bootstrapper, base: base).headerValue
            throw error
        }
        if request.header(WOPIHeader.sessionContext) != nil {
            logger.debug("Bootstrapper call with a session context", metadata: ["user": "\(user.id)"])
        }
        // Tokens minted here use the host's default lifetime: OAuth is the primary authentication (§9.4).
        let expiresAt = now().addingTimeInterval(configuration.accessTokenLifetime)
        let context = RequestContext(
            token: AccessToken(user: user, resource: .ecosystem, expiresAt: expiresAt), user: user, access: .edit,
            urls: urls(for: request))
        var response = BootstrapResponse(
            bootstrap: BootstrapInfo(
                ecosystemURL: context.withToken(context.ecosystemSrc, for: .ecosystem, signer: tokens),
                userID: user.id, signInName: user.signInName, userFriendlyName: user.displayName))
        switch shortcut {
        case WOPIEcosystemOperation.getRootContainer:
            response.rootContainerInfo = try await containerPointer(
                try await storage.rootContainer(forUser: user.id), context: context)
        case WOPIEcosystemOperation.getNewAccessToken:
            let resource = try await resourceForWopiSrc(request.header(WOPIHeader.wopiSrc), user: user)
            response.accessTokenInfo = AccessTokenInfo(
                accessToken: tokens.mint(AccessToken(user: user, resource: resource, expiresAt: expiresAt)),
                accessTokenExpiry: EpochMilliseconds.from(expiresAt))
            await auditTokenMint(userID: user.id, resource: resource, via: "GetNewAccessToken")
            response.endPoints = await configuration.coauthoring?.currentEndpoints()
        case WOPIEcosystemOperation.getWopiSrcWithAccessToken:
            let file = try await fileForNativeName(request.header(WOPIHeader.hostNativeFileName), user: user)
            response.wopiSrcInfo = URLResponse(
                url: context.withToken(context.fileSrc(file.id), for: .file(file.id), signer: tokens))
            await auditTokenMint(userID: user.id, resource: .file(file.id), via: "GetWopiSrcWithAccessToken")
        default:
            break
        }
        return try .json(response)
    }

    /// The challenge of a 401, with endpoints made absolute against the host's base URL.
    func challenge(_ bootstrapper: BootstrapperConfiguration, base: String) throws -> BootstrapChallenge {
        func absolute(_ endpoint: String) throws -> URL {
            let text = endpoint.contains("://") ? endpoint : base + (endpoint.hasPrefix("/") ? "" : "/") + endpoint
            guard let url = URL(string: text) else {
                throw WOPIHTTPError(.internalServerError, "The bootstrapper endpoint \(endpoint) is not a URL.")
            }
            return url
        }
        return BootstrapChallenge(
            authorizationURI: try absolute(bootstrapper.authorizationEndpoint),
            tokenIssuanceURI: try absolute(bootstrapper.tokenEndpoint), providerID: bootstrapper.providerID,
            urlSchemes: bootstrapper.urlSchemes)
    }

    /// GetNewAccessToken's `X-WOPI-WopiSrc`: a file or container WOPISrc this user may see; 404 otherwise (§9.4).
    func resourceForWopiSrc(_ wopiSrc: String?, user: WOPIUser) async throws -> AccessToken.Resource {
        guard let wopiSrc, let components = URLComponents(string: wopiSrc),
            case let route? = WOPIRoute(path: components.percentEncodedPath.removingPercentEncoding ?? "")
        else { throw WOPIHTTPError.notFound("X-WOPI-WopiSrc is missing or not a WOPISrc of this host.") }
        let resource: AccessToken.Resource
        switch route {
        case .file(let id, .info): resource = .file(id)
        case .container(let id, .info): resource = .container(id)
        default: throw WOPIHTTPError.notFound("X-WOPI-WopiSrc must name a file or a container.")
        }
        let id: ItemID
        switch resource {
        case .file(let file): id = file
        case .container(let container): id = container
        case .ecosystem: return resource
        }
        guard let item = try? await storage.item(id), try await access(of: user, to: item).allows(.see)
        else { throw WOPIHTTPError.notFound("No file or container this user may see has that WOPISrc.") }
        return resource
    }
}
