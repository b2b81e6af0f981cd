import Foundation
import Synchronization
import Testing
import WOPIDeployment
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

/// `/hosting/capabilities`: read with discovery when discovery names it and the source reads URLs.
@Suite struct ClientCapabilitiesTests {
    /// Discovery that names capabilities, and a capabilities document a test can change.
    final class Client: Sendable {
        let capabilities: Mutex<String?>
        let reads = Mutex<[String]>([])
        let xml: String
        init(capabilities: String?, named: Bool = true) throws {
            self.capabilities = Mutex(capabilities)
            xml = try TestDiscoveryXML.make(clientURL: "https://client.example", current: nil, capabilities: named)
        }
        var source: DiscoverySource {
            DiscoverySource(
                "test", fetch: { [xml] in Data(xml.utf8) },
                fetchURL: { [self] url in
                    reads.withLock { $0.append(url) }
                    guard let json = capabilities.withLock({ $0 }) else { throw URLError(.cannotConnectToHost) }
                    return Data(json.utf8)
                })
        }
    }

    static let collabora = #"""
        {"convert-to":{"available":true,"endpoint":"/cool/convert-to"},"hasMobileSupport":true,"hasProxyPrefix":false,
         "hasTemplateSaveAs":false,"hasTemplateSource":true,"hasZoteroSupport":true,
         "productName":"Collabora Online","productVersion":"24.04.1.2","serverId":"x"}
        """#
    static let onlyoffice = #"""
        {"convert-to":{"available":true,"endpoint":"/lool/convert-to"},"hasMobileSupport":true,"hasProxyPrefix":false,
         "hasTemplateSaveAs":false,"hasTemplateSource":true,"productVersion":"9.0.0"}
        """#

    @Test("Collabora's and ONLYOFFICE's capabilities, read from the URL discovery names")
    func readsBoth() async throws {
        let client = try Client(capabilities: Self.collabora)
        let discovery = DiscoveryClient(source: client.source)
        let found = try #require(try await discovery.capabilities())
        #expect(client.reads.withLock { $0 } == ["https://client.example/hosting/capabilities"])
        #expect(found.productName == "Collabora Online" && found.productVersion == "24.04.1.2")
        #expect(found.hasTemplateSource == true && found.hasTemplateSaveAs == false)
        #expect(found.convertTo == .init(available: true, endpoint: "/cool/convert-to"))
        let onlyoffice = try WOPIClientCapabilities(json: Data(Self.onlyoffice.utf8))
        #expect(onlyoffice.productName == nil && onlyoffice.hasTemplateSource == true)
        #expect(onlyoffice.convertTo?.endpoint == "/lool/convert-to")
        let odd = try WOPIClientCapabilities(json: Data(#"{"hasTemplateSource":"yes","productName":7}"#.utf8))
        #expect(odd == WOPIClientCapabilities(), "fields of another type count as absent")
        #expect(throws: WOPIFormatError.self) { try WOPIClientCapabilities(json: Data("[1]".utf8)) }
    }

    @Test("refreshed with discovery; none when discovery names none; a failed read keeps discovery")
    func refreshAndFailures() async throws {
        let clock = TestClock()
        let client = try Client(capabilities: Self.collabora)
        let discovery = DiscoveryClient(source: client.source, now: clock.dateSource)
        #expect(try await discovery.capabilities()?.hasTemplateSource == true)
        client.capabilities.withLock { $0 = nil }
        clock.advance(by: 13 * 3600.0)
        #expect(try await discovery.capabilities() == nil, "a failed read says nothing")
        _ = try await discovery.action("edit", fileName: "a.docx")
        client.capabilities.withLock { $0 = #"{"hasTemplateSource":false}"# }
        clock.advance(by: 13 * 3600.0)
        #expect(try await discovery.capabilities()?.hasTemplateSource == false)

        let silent = try Client(capabilities: Self.collabora, named: false)
        #expect(try await DiscoveryClient(source: silent.source).capabilities() == nil)
        #expect(silent.reads.withLock { $0 }.isEmpty, "Microsoft 365 publishes no capabilities: nothing is read")
    }
}

extension ClientCapabilitiesTests {
    @Test("the deployment exposes what the client said; none without discovery")
    func deploymentExposesThem() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stores = try DeploymentStores.fileSystem(directory: directory.url)
        var configuration = WOPIDeployment.Configuration()
        #expect(try await WOPIDeployment(stores: stores, configuration: configuration).clientCapabilities() == nil)
        configuration.discovery = try Client(capabilities: Self.onlyoffice).source
        configuration.host.proofKeyCheckDisabled = true
        let deployment = try await WOPIDeployment(stores: stores, configuration: configuration)
        #expect(await deployment.clientCapabilities()?.convertTo?.endpoint == "/lool/convert-to")
    }
}
