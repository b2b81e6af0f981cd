import Crypto
import Foundation
import HTTPTypes
import Testing
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// What the host records beyond the operations themselves (Docs/operations.md, "Audit trail"): the WOPI access
/// tokens it mints on a request, and share links redeemed; never the token or the link.
@Suite struct HostAuditTests {
    @Test func aTokenMintedForGetWopiSrcWithAccessTokenIsAudited() async throws {
        let audit = InMemoryAuditLog()
        let wopi = TestHost(audit: audit)
        let file = try await wopi.seedFile("a.docx", "x")
        let ecosystemToken = wopi.host.tokens.mint(
            AccessToken(userID: "ana", resource: .ecosystem, expiresAt: wopi.clock.date.addingTimeInterval(3600)))
        var head = HTTPRequest(
            method: .post, scheme: "http", authority: "wopi.test",
            path: "/wopi/ecosystem?access_token=\(ecosystemToken)")
        head.headerFields[HTTPField.Name("X-WOPI-Override")!] = "GET_WOPI_SRC_WITH_ACCESS_TOKEN"
        head.headerFields[HTTPField.Name("X-WOPI-HostNativeFileName")!] = file.id.rawValue

        let response = await wopi.host.handle(WOPIRequest(head: head))
        #expect(response.status == .ok)
        let minted = try #require(audit.events(matching: AuditQuery()).first { $0.action == .tokenMinted })
        #expect(minted.userID == "ana")
        #expect(minted.itemID == file.id.rawValue)
        #expect(minted.details == ["kind": "wopi", "via": "GetFileWopiSrc", "permission": "edit"])
        let url = try #require(response.json["Url"] as? String)
        let token = try #require(url.split(separator: "access_token=").last?.split(separator: "&").first)
        #expect(!"\(minted)".contains(token), "the record holds the token")
    }

    @Test func aRedeemedShareLinkIsAudited() async throws {
        let audit = InMemoryAuditLog()
        let shares = InMemoryShareStore()
        let key = SymmetricKey(size: .bits256)
        var configuration = WOPIHostConfiguration()
        configuration.shareLinks = ShareLinks(tokenKey: key, store: shares)
        let storage = InMemoryStorage()
        let wopi = TestHost(
            storage: storage, configuration: configuration,
            policy: SharingAccessPolicy(storage: storage, shares: shares), audit: audit)
        let file = try await wopi.seedFile("a.docx", "x")
        let link = try await ShareLinks(tokenKey: key, store: shares).url(
            for: .file(file), type: .readOnly, grantor: "ana", publicURL: "http://wopi.test", now: wopi.clock.date)
        let token = try #require(link.split(separator: "/").last.map(String.init))
        let bob = WOPIUser(id: "bob", signInName: "bob@example.com", displayName: "Bob", passwordHash: nil)

        let redeemed = try await wopi.host.redeemShareLink(token, for: bob)
        #expect(redeemed?.access.permission == .view)
        let again = try await wopi.host.redeemShareLink(token, for: bob)
        #expect(again?.access.permission == .view)

        let events = audit.events(matching: AuditQuery(userID: "bob"))
        #expect(events.map(\.action) == [.shareLinkRedeemed, .shareLinkRedeemed])
        #expect(events.map { $0.details["granted"] } == ["true", "false"], "the first redemption made the share")
        #expect(events.first?.details["permission"] == "view" && events.first?.details["grantor"] == "ana")
        #expect(events.allSatisfy { $0.itemID == file.id.rawValue && !"\($0)".contains(token) })
    }
}
