import Foundation
import HTTPTypes
import NIOCore
import Testing
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// EnumerateChildren of many children: the answer streams in pieces whose bytes are `JSONEncoder`'s, each child's
/// URL carries a token traded from the request's, and the listing reads storage as often for a thousand children as
/// for three (Docs/wopi-protocol.md §7.2).
@Suite struct ChildrenListingTests {
    /// Creates `files` files in Ana's root (every other one a workbook; names that need no sanitizing, some that
    /// JSON escapes or that are not ASCII, some that the rules show sanitized) and two folders; returns the root.
    static func seed(_ storage: any StorageBackend, files: Int) async throws -> ContainerMetadata {
        let root = try await storage.rootContainer(forUser: "ana")
        for index in 0..<files {
            let name =
                switch index % 4 {
                case 0: "Report \(index).docx"
                case 1: "Budget \(index).xlsx"
                case 2: "Über \"\(index)\" & Co.xlsx"
                default: "Notes 😀 \(index).docx"
                }
            _ = try await storage.createFile(
                named: name, in: root.id, content: ByteStream(chunks: [ByteBuffer(string: "\(index)")]),
                overwrite: false)
        }
        _ = try await storage.createContainer(named: "Zeta", in: root.id)
        _ = try await storage.createContainer(named: "Archive", in: root.id)
        return root
    }

    /// The answer a listing of `root` must be, built from the public types alone: children sorted by name, names as
    /// the host's rules show them, and each URL with a token for Ana that expires when `expiresAt` does.
    static func expected(
        _ root: ContainerMetadata, in wopi: TestHost, expiresAt: Date, extensions: Set<String>? = nil
    ) async throws -> EnumerateChildrenResponse {
        let rules = wopi.host.configuration.fileNameRules
        func url(_ path: String, _ resource: AccessToken.Resource) -> String {
            let token = wopi.host.tokens.mint(AccessToken(userID: "ana", resource: resource, expiresAt: expiresAt))
            return
                "\(wopi.wopiRoot)/\(path)?access_token=\(token)&access_token_ttl=\(EpochMilliseconds.from(expiresAt))"
        }
        var containers: [NamedURL] = []
        var files: [ChildFile] = []
        for child in try await wopi.storage.children(of: root.id).sorted(by: { $0.name < $1.name }) {
            switch child {
            case .container(let container):
                containers.append(
                    NamedURL(
                        name: rules.sanitized(container.name),
                        url: url("containers/\(container.id)", .container(container.id))))
            case .file(let file):
                if let extensions, !extensions.contains(where: { file.name.hasSuffix($0) }) { continue }
                files.append(
                    ChildFile(
                        name: rules.sanitized(file.name), url: url("files/\(file.id)", .file(file.id)), size: file.size,
                        version: file.version, lastModifiedTime: WOPIJSON.timestamp(file.lastModified)))
            }
        }
        return EnumerateChildrenResponse(childContainers: containers, childFiles: files)
    }

    /// Lists `root` as Ana through `host.handle(_:)`; returns the body's pieces as they came.
    static func list(_ root: ContainerMetadata, in wopi: TestHost, headers: HTTPFields = [:]) async throws
        -> (pieces: [ByteBuffer], streamed: Bool)
    {
        var head = HTTPRequest(
            method: .get, scheme: "http", authority: "wopi.test",
            path: "/wopi/containers/\(root.id)/children?access_token=\(wopi.token(.container(root.id)))")
        head.headerFields.append(contentsOf: headers)
        let response = await wopi.host.handle(WOPIRequest(head: head))
        try #require(response.status == .ok)
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        switch response.body {
        case .buffer(let buffer):
            return ([buffer], false)
        case .stream(let stream):
            var pieces: [ByteBuffer] = []
            for try await piece in stream { pieces.append(piece) }
            return (pieces, true)
        case .empty:
            return ([], false)
        }
    }

    /// The expiry of the tokens `wopi.token(_:)` mints now, as a token carries it (whole milliseconds).
    static func tokenExpiry(_ wopi: TestHost) -> Date {
        EpochMilliseconds.date(EpochMilliseconds.from(wopi.clock.date.addingTimeInterval(3600)))
    }

    @Test func aThousandFilesStreamInPiecesWithTheBytesJSONEncoderWrites() async throws {
        let wopi = TestHost()
        let root = try await Self.seed(wopi.storage, files: 1_000)
        let (pieces, streamed) = try await Self.list(root, in: wopi)
        #expect(streamed && pieces.count > 4, "a listing of 1,000 files comes in pieces")
        #expect(pieces.allSatisfy { $0.readableBytes < 64 * 1024 }, "no piece holds the whole listing")
        var body = ByteBuffer()
        for var piece in pieces { body.writeBuffer(&piece) }
        let expected = try await Self.expected(root, in: wopi, expiresAt: Self.tokenExpiry(wopi))
        #expect(expected.childFiles.count == 1_000 && expected.childContainers.count == 2)
        #expect(Array(body.readableBytesView) == Array(try WOPIJSON.encoder.encode(expected)))

        // The extension filter holds in a streamed listing too.
        let (filtered, _) = try await Self.list(
            root, in: wopi, headers: [HTTPField.Name(WOPIHeader.fileExtensionFilterList)!: ".xlsx"])
        var filteredBody = ByteBuffer()
        for var piece in filtered { filteredBody.writeBuffer(&piece) }
        let expectedWorkbooks = try await Self.expected(
            root, in: wopi, expiresAt: Self.tokenExpiry(wopi), extensions: [".xlsx"])
        #expect(expectedWorkbooks.childFiles.count == 500)
        #expect(Array(filteredBody.readableBytesView) == Array(try WOPIJSON.encoder.encode(expectedWorkbooks)))
    }

    @Test func aSmallListingIsOneBufferWithTheBytesJSONEncoderWrites() async throws {
        let wopi = TestHost()
        let root = try await Self.seed(wopi.storage, files: 4)
        let (pieces, streamed) = try await Self.list(root, in: wopi)
        #expect(!streamed && pieces.count == 1, "a small listing keeps its Content-Length")
        let expected = try await Self.expected(root, in: wopi, expiresAt: Self.tokenExpiry(wopi))
        #expect(Array(pieces[0].readableBytesView) == Array(try WOPIJSON.encoder.encode(expected)))
        // An empty container.
        let empty = try await wopi.storage.createContainer(named: "Empty", in: root.id)
        let (emptyPieces, _) = try await Self.list(empty, in: wopi)
        #expect(String(buffer: emptyPieces[0]) == #"{"ChildContainers":[],"ChildFiles":[]}"#)
    }

    @Test func theOwnersListingReadsStorageAsOftenForAThousandFilesAsForThree() async throws {
        /// The storage calls of one listing of a root holding `files` files.
        func reads(files: Int) async throws -> Int {
            let storage = CountingStorage(InMemoryStorage())
            let wopi = TestHost(storage: storage)
            let root = try await Self.seed(storage, files: files)
            let before = storage.count
            let (pieces, _) = try await Self.list(root, in: wopi)
            #expect(!pieces.isEmpty)
            return storage.count - before
        }
        let few = try await reads(files: 3)
        #expect(few == 2, "the token's item, then the children")
        #expect(try await reads(files: 1_000) == few)
    }

    @Test func aGranteesListingReadsStorageAsOftenForAThousandFilesAsForThree() async throws {
        /// The storage calls of Bob's listing of a folder Ana shares with him, holding `files` files.
        func reads(files: Int) async throws -> Int {
            let storage = CountingStorage(InMemoryStorage())
            let shares = InMemoryShareStore()
            let wopi = TestHost(storage: storage, policy: SharingAccessPolicy(storage: storage, shares: shares))
            let root = try await storage.rootContainer(forUser: "ana")
            let shared = try await storage.createContainer(named: "Shared", in: root.id)
            for index in 0..<files {
                _ = try await storage.createFile(
                    named: "File \(index).docx", in: shared.id, content: .empty, overwrite: false)
            }
            try await shares.grant(
                Share(itemID: shared.id, granteeID: "bob", permission: .view, grantedBy: "ana", grantedAt: Date()))
            let before = storage.count
            let response = await wopi.host.handle(
                TestHost.getRequest(
                    "/wopi/containers/\(shared.id)/children?access_token=\(wopi.token(.container(shared.id), user: "bob"))"
                ))
            #expect(response.status == .ok)
            if case .stream(let stream) = response.body { for try await _ in stream {} }
            return storage.count - before
        }
        let few = try await reads(files: 3)
        #expect(try await reads(files: 1_000) == few, "no storage read per child")
    }
}
