import Crypto
import Foundation
import Logging
import NIOCore
import Synchronization
import WOPIChunking
import WOPIModels
import WOPIStorage
import _CryptoExtras

@testable import WOPIServer

/// The host the `http-host` target drives: a `WOPIHost` on in-memory stores with co-authoring (CSPP Plus), `FileUrl`s,
/// share links, templates, the bootstrapper and a 4 MiB file limit, seeded with Ana's `notes.txt`, `deck.pptx` (a
/// small zip, so the Zip chunker runs), `Folder/inner.docx`, and Bob's `bob.txt`, shared with Ana to view.
///
/// What never changes (keys, users, seed content and its chunks) is made once per process (``FuzzHostFixture``); the
/// stores are new for every input, so an input's answers depend on that input alone: a crash replays from its file,
/// `-runs` from a fixed seed explores the same inputs on every machine, and nothing grows across a long run.
struct FuzzHost: Sendable {
    let host: WOPIHost
    let variant: HostVariant
    let clock: FuzzClock
    let users: InMemoryUserDirectory
    let textFile: ItemID
    let zipFile: ItemID
    let innerFile: ItemID
    let bobFile: ItemID
    let root: ItemID
    let folder: ItemID
    let bobRoot: ItemID

    /// The public URL when ``HostVariant/urlsFromRequest`` is off.
    static let publicURL = "https://wopi.test"
    /// The largest file PutFile, PutRelativeFile and the chunked and resumable transfers accept: small, so that inputs
    /// reach the limit.
    static let maximumFileSize: Int64 = 4 * 1024 * 1024

    /// A host seeded as described above.
    static func make(_ variant: HostVariant) async throws -> FuzzHost {
        let clock = FuzzClock()
        let storage = InMemoryStorage(now: clock.dateSource)
        let root = await storage.rootContainer(forUser: "ana").id
        let folder = try await storage.createContainer(named: "Folder", in: root).id
        func file(_ name: String, in parent: ItemID, _ content: [UInt8]) async throws -> ItemID {
            try await storage.createFile(
                named: name, in: parent, content: ByteStream(buffer: ByteBuffer(bytes: content)), overwrite: false
            ).id
        }
        let textFile = try await file("notes.txt", in: root, FuzzHostFixture.text)
        let zipFile = try await file("deck.pptx", in: root, FuzzHostFixture.zip)
        let innerFile = try await file("inner.docx", in: folder, FuzzHostFixture.inner)
        let bobRoot = await storage.rootContainer(forUser: "bob").id
        let bobFile = try await file("bob.txt", in: bobRoot, FuzzHostFixture.text)
        let shares = InMemoryShareStore()
        try await shares.grant(
            Share(itemID: bobFile, granteeID: "ana", permission: .view, grantedBy: "bob", grantedAt: clock.date))
        let templates = InMemoryTemplateStore([
            (Template(id: "blank", name: "Blank", documentExtension: "docx"), FuzzHostFixture.zip)
        ])
        await templates.setTemplate("blank", of: innerFile)
        let users = InMemoryUserDirectory(FuzzHostFixture.users)
        let configuration = FuzzHostFixture.configuration(variant, templates: templates, shares: shares)
        let host = WOPIHost(
            storage: storage, locks: InMemoryLockStore(now: clock.dateSource), users: users,
            tokens: FuzzHostFixture.tokens, configuration: configuration,
            bootstrapper: BootstrapperConfiguration(verifier: FuzzOAuthVerifier(), providerID: "wopikit-fuzz"),
            policy: SharingAccessPolicy(storage: storage, shares: shares), audit: InMemoryAuditLog(),
            logger: FuzzHostFixture.logger, now: clock.dateSource)
        return FuzzHost(
            host: host, variant: variant, clock: clock, users: users, textFile: textFile, zipFile: zipFile,
            innerFile: innerFile, bobFile: bobFile, root: root, folder: folder, bobRoot: bobRoot)
    }

    /// An access token of `user` for `resource`, valid for an hour from now unless `lifetime` says otherwise.
    func token(
        _ resource: AccessToken.Resource, user: String = "ana", permission: Permission = .edit,
        lifetime: TimeInterval = 3600
    ) -> String {
        FuzzHostFixture.tokens.mint(
            AccessToken(
                userID: user, resource: resource, expiresAt: clock.date.addingTimeInterval(lifetime),
                permission: permission))
    }

    /// The ticket of `file`'s `FileUrl` for Ana, as CheckFileInfo hands it out.
    func fileURLTicket(_ file: ItemID) -> String {
        let urls = WOPIURLs(root: Self.publicURL + "/wopi")
        let url =
            host.configuration.fileURLs?.url(
                for: file, user: "ana", urls: urls, notAfter: clock.date.addingTimeInterval(3600), now: clock.date)
            ?? ""
        return url.range(of: "ticket=").map { String(url[$0.upperBound...]) } ?? ""
    }
}

/// The fuzzed host's clock: fixed, so that runs repeat, and moved on only by a script's ``ClockStep``.
final class FuzzClock: Sendable {
    private let now = Mutex(FuzzHostFixture.start)

    var date: Date { now.withLock { $0 } }

    var dateSource: @Sendable () -> Date { { [self] in date } }

    func advance(by seconds: TimeInterval) { now.withLock { $0 += seconds } }
}

/// The bootstrapper's OAuth tokens: `oauth-ana` and `oauth-bob` sign in, `oauth-ghost` names a user the directory does
/// not have; anything else is refused.
struct FuzzOAuthVerifier: OAuthAccessTokenVerifier {
    func userID(forAccessToken token: String) async throws -> String? {
        switch token {
        case "oauth-ana": "ana"
        case "oauth-bob": "bob"
        case "oauth-ghost": "ghost"
        default: nil
        }
    }
}

/// Office for the web's proof keys, as a fixed key pair whose private half the target signs requests with.
struct FuzzProofKeys: ProofKeySource {
    func proofKeyValidator() async throws -> ProofKeyValidator { FuzzHostFixture.proofKeys.validator }
    func keysMayHaveRotated() async -> Bool { false }
}

/// What every ``FuzzHost`` shares: made once per process.
enum FuzzHostFixture {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let tokenKey = SymmetricKey(data: [UInt8](repeating: 0x5A, count: 32))
    static let tokens = AccessTokenSigner(key: tokenKey)
    static let fileURLs = FileURLs(tokenKey: tokenKey, lifetime: 3600)
    static let users = [
        WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil),
        WOPIUser(id: "bob", signInName: "bob@example.com", displayName: "Bob", passwordHash: nil),
    ]
    /// Logs go nowhere: a fuzz run would otherwise print a line for every save.
    static let logger = Logger(label: "wopikit.fuzz") { _ in SwiftLogNoOpLogHandler() }

    static let text = Array("Hello, WOPI.\n".utf8)
    static let inner = Array("Inner document.\n".utf8)
    /// A zip of three stored entries (`[Content_Types].xml`, `ppt/presentation.xml`, `docProps/app.xml`).
    static let zip = storedZip([
        ("[Content_Types].xml", Array("<Types/>".utf8)),
        ("ppt/presentation.xml", Array("<p:presentation/>".utf8)),
        ("docProps/app.xml", Array("<Properties/>".utf8)),
    ])
    /// The seed files' contents, for bodies made from them (and an empty one).
    static let seedContents: [[UInt8]] = [text, zip, inner, []]
    /// The chunks the host has before any input changes a file: `notes.txt` (also `bob.txt`), each chunk of
    /// `deck.pptx`, `inner.docx`, as scripts name them in signatures and GetChunks ranges.
    static let seedChunks: [[UInt8]] = [text] + zipChunks(zip) + [inner]

    static let proofKeys: (key: _RSA.Signing.PrivateKey, validator: ProofKeyValidator) = {
        let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try! key.publicKey.getKeyPrimitives()
        let components = RSAPublicKeyComponents(
            modulus: Array(primitives.modulus), exponent: Array(primitives.publicExponent))
        return (key, try! ProofKeyValidator(current: components, old: components))
    }()

    /// The configuration of a host of `variant`.
    static func configuration(
        _ variant: HostVariant, templates: any TemplateStore, shares: any ShareStore
    ) -> WOPIHostConfiguration {
        var configuration = WOPIHostConfiguration()
        configuration.publicURL = variant.urlsFromRequest ? nil : FuzzHost.publicURL
        configuration.maximumFileSize = FuzzHost.maximumFileSize
        configuration.fileURLs = fileURLs
        configuration.templates = templates
        configuration.shareLinks = variant.shareLinks ? ShareLinks(tokenKey: tokenKey, store: shares) : nil
        configuration.viewOnlyLocks = variant.acknowledgeViewOnlyLocks ? .acknowledge : .refuse
        configuration.fileNameRules = variant.officeMobileNames ? .officeMobile : .default
        configuration.endedSessionLocks = variant.releaseAfterClose ? .releaseAfterClose(grace: 60) : .expire
        configuration.proofKeySource = variant.proofKeys ? FuzzProofKeys() : nil
        configuration.coauthoring = CoauthoringConfiguration(
            endpoints: .fixed(
                CoauthoringEndpoints(
                    realTimeChannel: "https://rtc.example.com/", officeCollaborationService: "https://ocs.example.com/")
            ),
            fileGeoLocationCode: "EU")
        return configuration
    }

    /// A zip whose entries are stored uncompressed (CRCs left 0: the chunker reads only the headers' sizes).
    private static func storedZip(_ entries: [(String, [UInt8])]) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
        var bytes: [UInt8] = []
        var directory: [UInt8] = []
        for (name, data) in entries {
            let offset = bytes.count
            let sizes = le32(0) + le32(data.count) + le32(data.count)  // CRC, compressed and uncompressed sizes
            bytes += [0x50, 0x4B, 0x03, 0x04] + le16(20) + le16(0) + le16(0) + le32(0) + sizes
            bytes += le16(name.utf8.count) + le16(0) + Array(name.utf8) + data
            directory += [0x50, 0x4B, 0x01, 0x02] + le16(20) + le16(20) + le16(0) + le16(0) + le32(0) + sizes
            directory += le16(name.utf8.count) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset)
            directory += Array(name.utf8)
        }
        let end =
            [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
            + le32(directory.count) + le32(bytes.count) + le16(0)
        return bytes + directory + end
    }

    private static func zipChunks(_ bytes: [UInt8]) -> [[UInt8]] {
        var chunker = ZipChunker()
        var chunks: [[UInt8]] = []
        var current: [UInt8] = []
        for event in chunker.consume(ByteBuffer(bytes: bytes)) + chunker.finish() {
            switch event {
            case .bytes(let part): current += Array(part.readableBytesView)
            case .chunkEnd:
                chunks.append(current)
                current = []
            }
        }
        return chunks
    }
}
