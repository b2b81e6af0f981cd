public import Crypto
public import Foundation
import WOPIHTTPEdge
import WOPIStorage

/// The `FileUrl` of CheckFileInfo: a short-lived URL a WOPI client downloads the file's content from instead of
/// calling GetFile (Docs/wopi-protocol.md §7; Collabora Online tries it before `/contents`, ONLYOFFICE uses it when
/// present).
///
/// A client uses `FileUrl` exactly as given: it appends no access token and signs no proof. So the URL carries a
/// ticket of its own instead, signed with a key derived from the token key: it names one file and one user, allows
/// one thing (reading that file's content, with `Range` if asked), and lapses after ``lifetime`` or when the access
/// token it was issued to does, whichever comes first. A ticket is not an access token and an access token is not a
/// ticket. Each request is checked against the ``AccessPolicy`` again, so a revoked share or a deleted file ends it
/// at once.
///
/// The URL serves the file's *current* content, not the version CheckFileInfo described: FileUrl stands in for
/// GetFile, and Microsoft's validator (`GetFromFileUrlAfterPutFile`) reads it again after a PutFile and expects the
/// new bytes. A client that must not mix versions compares `X-WOPI-ItemVersion`, which the response carries as
/// GetFile's does.
public struct FileURLs: Sendable {
    /// How long a `FileUrl` stays valid after CheckFileInfo hands it out.
    public let lifetime: TimeInterval
    private let signer: AccessTokenSigner

    /// The endpoint below a file's WOPISrc that serves its `FileUrl`.
    static let endpoint = "fileurl"
    /// The query parameter that carries the ticket.
    static let ticketParameter = "ticket"

    /// Creates the `FileUrl`s of a host.
    ///
    /// - Parameters:
    ///   - tokenKey: the key of the host's ``AccessTokenSigner``; a separate key is derived from it, so every host
    ///     process sharing the token key serves the others' URLs.
    ///   - lifetime: how long a URL stays valid (default 5 minutes: a WOPI client downloads the file right after
    ///     CheckFileInfo, and asks CheckFileInfo again for the next download).
    public init(tokenKey: SymmetricKey, lifetime: TimeInterval = 5 * 60) {
        signer = AccessTokenSigner(derivingFrom: tokenKey, purpose: "file urls v1")
        self.lifetime = lifetime
    }

    /// The `FileUrl` of `file` for `user`, valid until `now + lifetime` or `notAfter` (the access token's expiry).
    func url(for file: ItemID, user: String, urls: WOPIURLs, notAfter: Date, now: Date) -> String {
        let ticket = AccessToken(
            userID: user, resource: .file(file), expiresAt: min(now.addingTimeInterval(lifetime), notAfter),
            permission: .view)
        return "\(urls.file(file))/\(Self.endpoint)?\(Self.ticketParameter)=\(signer.mint(ticket))"
    }

    /// The user a request to `file`'s `FileUrl` reads for: 401 for a missing, forged or lapsed ticket, 404 for a
    /// ticket of another file.
    func user(of request: WOPIRequest, file: ItemID, now: Date) throws -> String {
        guard let ticket = request.query[Self.ticketParameter] else {
            throw WOPIHTTPError.unauthorized("A FileUrl needs its ticket; ask CheckFileInfo for a new FileUrl.")
        }
        let claims: AccessToken
        do {
            claims = try signer.verify(ticket, now: now)
        } catch .expired {
            throw WOPIHTTPError.unauthorized("The FileUrl expired; ask CheckFileInfo for a new one.")
        } catch {
            throw WOPIHTTPError.unauthorized("The FileUrl's ticket is not valid.")
        }
        guard claims.resource == .file(file) else {
            throw WOPIHTTPError.notFound("The FileUrl's ticket is for another file.")
        }
        return claims.userID
    }
}
