import Foundation
import Testing
import WOPIModels
import WOPIServer
import WOPITestSupport

/// The discovery client: loading, caching, the 12-hour and after-failure refreshes, the last good copy, action
/// lookup and `urlsrc` filling.
@Suite struct DiscoveryClientTests {
    static let clientURL = "https://client.example"

    static func xml(_ signer: ProofSigner? = nil) throws -> String {
        try TestDiscoveryXML.make(clientURL: clientURL, current: signer)
    }

    @Test func loadsOnceAndRefreshesAfterTwelveHours() async throws {
        let clock = TestClock()
        let document = ChangingDiscovery(try Self.xml())
        let client = DiscoveryClient(source: document.source, now: clock.dateSource)
        #expect(document.fetches == 0)
        _ = try await client.discovery()
        _ = try await client.action("edit", fileName: "a.docx")
        #expect(document.fetches == 1)
        clock.advance(by: 11 * 3600.0)
        _ = try await client.discovery()
        #expect(document.fetches == 1)
        clock.advance(by: 3600.0)
        _ = try await client.discovery()
        #expect(document.fetches == 2)
    }

    @Test func keepsTheLastGoodCopyWhenAFetchFails() async throws {
        let clock = TestClock()
        let document = ChangingDiscovery(try Self.xml())
        let client = DiscoveryClient(source: document.source, now: clock.dateSource)
        _ = try await client.discovery()
        document.set(nil)
        clock.advance(by: 13 * 3600.0)
        let kept = try await client.action("view", fileName: "a.docx")
        #expect(document.fetches == 2)
        #expect(kept.app.name == "Word")
        document.set("<not-discovery/>")
        clock.advance(by: 61.0)
        #expect(await client.keysMayHaveRotated() == false)
        #expect(try await client.action("view", fileName: "a.docx").app.name == "Word")
    }

    @Test func firstFailureIsATypedErrorAndRetriedOnlyAfterAMinute() async throws {
        let clock = TestClock()
        let document = ChangingDiscovery(nil)
        let client = DiscoveryClient(source: document.source, now: clock.dateSource)
        let error = await #expect(throws: DiscoveryError.self) { try await client.discovery() }
        #expect(error?.code == .fetchFailed)
        document.set(try Self.xml())
        await #expect(throws: DiscoveryError.self) { try await client.discovery() }
        #expect(document.fetches == 1)
        clock.advance(by: 60.0)
        _ = try await client.discovery()
        #expect(document.fetches == 2)
    }

    @Test func proofFailuresRefetchAtMostOnceAMinute() async throws {
        let clock = TestClock()
        let document = ChangingDiscovery(try Self.xml(try ProofSigner()))
        let client = DiscoveryClient(source: document.source, now: clock.dateSource)
        _ = try await client.proofKeyValidator()
        clock.advance(by: 61.0)
        #expect(await client.keysMayHaveRotated())
        #expect(await client.keysMayHaveRotated() == false)
        clock.advance(by: 30.0)
        #expect(await client.keysMayHaveRotated() == false)
        #expect(document.fetches == 2)
        clock.advance(by: 31.0)
        #expect(await client.keysMayHaveRotated())
        #expect(document.fetches == 3)
    }

    @Test func discoveryWithoutProofKeyCannotCheckRequests() async throws {
        let client = DiscoveryClient(source: ChangingDiscovery(try Self.xml()).source)
        let error = await #expect(throws: DiscoveryError.self) { try await client.proofKeyValidator() }
        #expect(error?.code == .noProofKey)
    }

    @Test func findsActionsByExtensionAndProgIDAndSaysWhenThereIsNone() async throws {
        let client = DiscoveryClient(source: ChangingDiscovery(try Self.xml()).source)
        let edit = try await client.action("edit", fileName: "Budget.DOCX")
        #expect(edit.action.name == "edit" && edit.zone == "external-http")
        #expect(try await client.action("editnew", fileName: "New.docx").action.name == "editnew")
        let notebook = try await client.action("view", fileName: "Notes", progID: "OneNote.Notebook")
        #expect(notebook.app.name == "OneNote")
        let missing = await #expect(throws: DiscoveryError.self) { try await client.action("edit", fileName: "a.xlsx") }
        #expect(missing?.code == .noAction)
        #expect(missing?.message.contains(".xlsx") == true)
        let noEdit = await #expect(throws: DiscoveryError.self) {
            try await client.action("embedview", fileName: "a.docx")
        }
        #expect(noEdit?.message.contains("it offers: view, edit, editnew") == true)
    }

    @Test func fillsTheDocumentedPlaceholdersAndDropsTheRest() async throws {
        let client = DiscoveryClient(source: ChangingDiscovery(try Self.xml()).source)
        let match = try await client.action("edit", fileName: "a.docx")
        let wopiSrc = URL(string: "https://host.example/wopi/files/f1")!
        let options = ActionURLOptions(
            uiLanguage: "de-DE", businessUser: true, disableChat: true, embedded: true,
            validatorTestCategory: "OfficeOnline")
        #expect(
            match.action.url(wopiSrc: wopiSrc, values: options.values)
                == "https://client.example/we/edit.aspx?ui=de-DE&rs=de-DE&dchat=1&IsLicensedUser=1"
                + "&embed=true&testcategory=OfficeOnline&wopisrc=https%3A%2F%2Fhost.example%2Fwopi%2Ffiles%2Ff1")
        #expect(
            match.action.url(wopiSrc: wopiSrc, values: ActionURLOptions().values)
                == "https://client.example/we/edit.aspx?wopisrc=https%3A%2F%2Fhost.example%2Fwopi%2Ffiles%2Ff1"
        )
    }

    @Test func readsADiscoveryFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("discovery.xml").path
        try Data(try Self.xml().utf8).write(to: URL(fileURLWithPath: path))
        let client = DiscoveryClient(source: .file(path))
        #expect(try await client.discovery().netZones.first?.apps.count == 2)
        let missing = DiscoveryClient(source: .file(path + ".missing"))
        let error = await #expect(throws: DiscoveryError.self) { try await missing.discovery() }
        #expect(error?.code == .fetchFailed)
    }
}
