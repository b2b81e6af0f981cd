import Foundation
import HTTPTypes
import NIOCore
import Testing
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage

/// New documents from templates: an empty file whose CheckFileInfo names the template in `TemplateSource` until
/// its first save, and the token-checked template endpoint the editor loads it from.
@Suite struct TemplateTests {
    static let letter = Template(id: "letter", name: "Letter.dotx", documentExtension: "docx")

    static func host() -> TestHost {
        var configuration = WOPIHostConfiguration()
        configuration.templates = InMemoryTemplateStore([(letter, Array("LETTERHEAD".utf8))])
        return TestHost(configuration: configuration)
    }

    @Test("TemplateSource until the first save; the template under the file's token; 404 after")
    func templateFlow() async throws {
        let host = Self.host()
        let root = try await host.storage.rootContainer(forUser: "ana")
        let ana = try #require(try await host.host.users.user("ana"))
        let file = try await host.host.createDocument(fromTemplate: "letter", named: "Offer", in: root.id, for: ana)
        #expect(file.name == "Offer.docx" && file.size == 0)

        let info = await host.send(.get, file.id)
        let source = try #require(info.json["TemplateSource"] as? String)
        #expect(source.hasPrefix("http://wopi.test/wopi/files/\(file.id)/template?access_token="))
        let target = String(source.dropFirst("http://wopi.test".count))
        let template = await host.host.handle(TestHost.getRequest(target))
        guard case .stream(let body) = template.body else {
            Issue.record("the template has no body (\(template.status.code))")
            return
        }
        #expect(template.status == .ok)
        #expect(String(buffer: try await body.collect(upTo: 100)) == "LETTERHEAD")

        let other = try await host.seedFile("other.docx", "v1")
        let wrongToken = await host.host.handle(
            TestHost.getRequest("/wopi/files/\(file.id)/template?access_token=\(host.token(other.id))"))
        #expect(wrongToken.status == .notFound, "a token for another file")
        #expect(await host.send(.get, other.id, "/template").status == .notFound, "a file made from no template")

        // The editor's first save is a normal PutFile (unlocked, on the empty file); the reference goes.
        let save = await host.send(.post, file.id, "/contents", ["X-WOPI-Override": "PUT"], body: "LETTERHEAD+text")
        #expect(save.status == .ok)
        #expect(await host.send(.get, file.id).json["TemplateSource"] == nil)
        #expect(await host.host.handle(TestHost.getRequest(target)).status == .notFound)
    }

    @Test("an unknown template, a folder the user may not write: refused, nothing created")
    func refusals() async throws {
        let host = Self.host()
        let root = try await host.storage.rootContainer(forUser: "ana")
        let ana = try #require(try await host.host.users.user("ana"))
        let bob = try #require(try await host.host.users.user("bob"))
        await #expect(throws: WOPIHTTPError.self) {
            try await host.host.createDocument(fromTemplate: "nope", named: "x", in: root.id, for: ana)
        }
        await #expect(throws: (any Error).self) {
            try await host.host.createDocument(fromTemplate: "letter", named: "x", in: root.id, for: bob)
        }
        #expect(try await host.storage.children(of: root.id).isEmpty)
    }
}
