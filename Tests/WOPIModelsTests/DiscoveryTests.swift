import Foundation
import Testing
import WOPIModels

@Suite struct DiscoveryTests {
    static let modulus =
        "0HOWUPFFgmSYHbLZZzdWO/HUOr8YNfx5NAl7GUytooHZ7B9QxQKTJpj0NIJ4XEskQW8e4dLzRrPbNOOJ+KpWHttXz8HoQXkkZV/gYNxaNHJ8/pRX"
        + "GMZzfVM5vchhx/2C7ULPTrpBsSpmfWQ6ShaVoQzfThFUd0MsBvIN7HVtqzPx9jbSV04wAqyNjcro7F3iu9w7AEsMejHbFlWoN+J05dP5ixry"
        + "F7+2U5RVmjMt7/dYUdCoiXvCMt2CaVr0XEG6udHU4iDKVKZjmUBc7cTWRzhqEL7lZ1yQfylp38Nd2xxVJ0sSU7OkC1bBDlePcYGaF3JjJgsm"
        + "p/H5BNnlW9gSxQ=="
    static let value =
        "BgIAAACkAABSU0ExAAgAAAEAAQDFEthb5dkE+fGnJgsmY3IXmoFxj1cOwVYLpLNTEksnVRzbXcPfaSl/kFxn5b4QajhH1sTtXECZY6ZUyiDi1NG5"
        + "ukFc9Fppgt0ywnuJqNBRWPfvLTOaVZRTtr8X8hqL+dPldOI3qFUW2zF6DEsAO9y74l3s6MqNjawCME5X0jb28TOrbXXsDfIGLEN3VBFO3wyh"
        + "lRZKOmR9ZiqxQbpOz0Ltgv3HYci9OVN9c8YYV5T+fHI0Wtxg4F9lJHlB6MHPV9seVqr4ieM027NG89LhHm9BJEtceII09JgmkwLFUB/s2YGi"
        + "rUwZewk0efw1GL861PE7Vjdn2bIdmGSCRfFQlnPQ"

    /// A small discovery document in the shape of Microsoft's (entities in urlsrc, unknown attributes/elements).
    static let document = """
        <?xml version="1.0" encoding="utf-8"?>
        <wopi-discovery>
          <net-zone name="external-https">
            <app name="Word" favIconUrl="https://c.example/wv/resources/1033/FavIcon_Word.ico" checkLicense="true"
                 applicationBaseUrl="https://word-view.example">
              <action name="view" ext="docx" default="true"
                urlsrc="https://word-view.example/wv/wordviewerframe.aspx?&lt;ui=UI_LLCC&amp;&gt;&lt;rs=DC_LLCC&amp;&gt;&lt;dchat=DISABLE_CHAT&amp;&gt;&lt;hid=HOST_SESSION_ID&amp;&gt;&lt;sc=SESSION_CONTEXT&amp;&gt;&lt;wopisrc=WOPI_SOURCE&amp;&gt;&lt;showpagestats=PERFSTATS&amp;&gt;&lt;actnavid=ACTIVITY_NAVIGATION_ID&amp;&gt;" />
              <action name="edit" ext="docx" requires="locks, cobalt,update"
                urlsrc="https://word-edit.example/we/wordeditorframe.aspx?&lt;ui=UI_LLCC&amp;&gt;&lt;rs=DC_LLCC&amp;&gt;&lt;IsLicensedUser=BUSINESS_USER&amp;&gt;" />
              <action name="editnew" ext="docx" requires="locks,update"
                urlsrc="https://word-edit.example/we/wordeditorframe.aspx?new=1&amp;&lt;ui=UI_LLCC&amp;&gt;" />
              <action name="view" ext="doc" progid="Word.Document.8"
                urlsrc="https://word-view.example/wv/wordviewerframe.aspx" />
              <future-element anything="goes"/>
            </app>
            <app name="Excel" checkLicense="false">
              <action name="view" ext="xlsx" default="true"
                urlsrc="https://excel.example/x/_layouts/xlviewerinternal.aspx?&lt;ui=UI_LLCC&amp;&gt;&lt;rs=DC_LLCC&amp;&gt;" />
            </app>
            <app name="WopiTest" checkLicense="true">
              <action name="view" ext="wopitest" urlsrc="https://onenote.example/hosting/WopiTestFrame.aspx?&lt;ui=UI_LLCC&amp;&gt;&lt;testcategory=VALIDATOR_TEST_CATEGORY&gt;" />
              <action name="getinfo" ext="wopitest" urlsrc="https://onenote.example/hosting/GetWopiTestInfo.ashx" />
            </app>
          </net-zone>
          <net-zone name="internal-https">
            <app name="Word">
              <action name="view" ext="docx" urlsrc="https://internal.example/wv/wordviewerframe.aspx?&lt;ui=UI_LLCC&amp;&gt;" />
            </app>
          </net-zone>
          <proof-key oldvalue="" oldmodulus="" oldexponent="" value="\(value)" modulus="\(modulus)" exponent="AQAB"/>
        </wopi-discovery>
        """

    static let wopiSrc = URL(string: "https://wopi.contoso.com/wopi/files/f_42")!
    static let encodedSrc = "https%3A%2F%2Fwopi.contoso.com%2Fwopi%2Ffiles%2Ff_42"

    @Test(
        "a document declaring an encoding other than UTF-8 is refused before XMLParser sees it (utf-7 crashed libxml2)")
    func refusesNonUTF8Encodings() throws {
        for encoding in ["utf-7", "UTF-7", "iso-2022-jp"] {
            let xml =
                "<?xml version=\"1.0\" encoding='\(encoding)'?>\n<wopi-discovery><net-zone name=\"x\"/></wopi-discovery>"
            #expect(throws: WOPIFormatError.self) { try WOPIDiscovery(xml: Data(xml.utf8)) }
        }
        for risky in [
            "<?xm?><wopi-discovery/>", "<wopi-discovery><?pi?></wopi-discovery>",
            "<!DOCTYPE d [<!ENTITY a \"b\">]><wopi-discovery/>", "<wopi-discovery>\0</wopi-discovery>",
        ] {
            #expect(throws: WOPIFormatError.self, "\(risky)") { try WOPIDiscovery(xml: Data(risky.utf8)) }
        }
        let utf8 = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<wopi-discovery><net-zone name=\"x\"/></wopi-discovery>"
        #expect(try WOPIDiscovery(xml: Data(utf8.utf8)).netZones.count == 1)
    }

    @Test func parsesZonesAppsAndActions() throws {
        let discovery = try WOPIDiscovery(xml: Data(Self.document.utf8))
        #expect(discovery.netZones.map(\.name) == ["external-https", "internal-https"])
        let external = try #require(discovery.netZone(DiscoveryNetZone.Name.externalHTTPS))
        #expect(external.apps.map(\.name) == ["Word", "Excel", "WopiTest"])
        let word = external.apps[0]
        #expect(word.favIconURL == "https://c.example/wv/resources/1033/FavIcon_Word.ico")
        #expect(word.checkLicense && !external.apps[1].checkLicense)
        #expect(word.attributes["applicationBaseUrl"] == "https://word-view.example")
        #expect(word.actions.count == 4)
        let edit = try #require(discovery.action(named: "EDIT", forExtension: ".DOCX"))
        #expect(edit.requires == ["locks", "cobalt", "update"])
        #expect(!edit.isDefault)
        #expect(discovery.action(named: "view", forExtension: "docx")?.isDefault == true)
        #expect(discovery.action(named: "view", forExtension: "doc")?.attributes["progid"] == "Word.Document.8")
        #expect(discovery.actions(forExtension: "wopitest").map(\.name) == ["view", "getinfo"])
        #expect(discovery.action(named: "edit", forExtension: "xlsx") == nil)
        #expect(
            discovery.action(named: "view", forExtension: "docx", inZone: "internal-https")?.urlTemplate.template
                == "https://internal.example/wv/wordviewerframe.aspx?<ui=UI_LLCC&>")
        #expect(discovery.netZone("nowhere") == nil)
    }

    @Test func parsesTheProofKey() throws {
        let discovery = try WOPIDiscovery(xml: Data(Self.document.utf8))
        let proofKey = try #require(discovery.proofKey)
        #expect(proofKey.exponent == "AQAB")
        let current = try proofKey.currentKey()
        #expect(current.bitCount == 2048)
        #expect(current.exponent == [0x01, 0x00, 0x01])
        #expect(try proofKey.oldKey() == nil)
        #expect(try RSAPublicKeyComponents(cspBlobBase64: Self.value) == current)
        #expect(try DiscoveryProofKey(value: Self.value).currentKey() == current)
        #expect(throws: WOPIFormatError.self) { try DiscoveryProofKey().currentKey() }
        #expect(throws: WOPIFormatError.self) { try RSAPublicKeyComponents(cspBlobBase64: "AAAA") }
        #expect(throws: WOPIFormatError.self) { try RSAPublicKeyComponents(cspBlobBase64: "not base64!") }
        #expect(throws: WOPIFormatError.self) {
            try RSAPublicKeyComponents(base64Modulus: "AAAA", base64Exponent: "AQAB")
        }
    }

    @Test func buildsActionURLsFromTemplates() throws {
        let discovery = try WOPIDiscovery(xml: Data(Self.document.utf8))
        let view = try #require(discovery.action(named: "view", forExtension: "docx"))
        #expect(
            view.url(wopiSrc: Self.wopiSrc, values: [.uiLanguage: "en-US", .sessionContext: "a b&c"])
                == "https://word-view.example/wv/wordviewerframe.aspx?ui=en-US&sc=a%20b%26c&wopisrc=\(Self.encodedSrc)")
        #expect(
            view.url(wopiSrc: Self.wopiSrc)
                == "https://word-view.example/wv/wordviewerframe.aspx?wopisrc=\(Self.encodedSrc)")
        let edit = try #require(discovery.action(named: "edit", forExtension: "docx"))
        #expect(
            edit.url(wopiSrc: Self.wopiSrc, values: [.businessUser: "1", .dataLanguage: "de-DE"])
                == "https://word-edit.example/we/wordeditorframe.aspx?rs=de-DE&IsLicensedUser=1&WOPISrc=\(Self.encodedSrc)"
        )
        let editNew = try #require(discovery.action(named: "editnew", forExtension: "docx"))
        #expect(
            editNew.url(wopiSrc: Self.wopiSrc)
                == "https://word-edit.example/we/wordeditorframe.aspx?new=1&WOPISrc=\(Self.encodedSrc)")
        let getInfo = try #require(discovery.action(named: "getinfo", forExtension: "wopitest"))
        #expect(
            getInfo.url(wopiSrc: Self.wopiSrc)
                == "https://onenote.example/hosting/GetWopiTestInfo.ashx?WOPISrc=\(Self.encodedSrc)")
        let test = try #require(discovery.action(named: "view", forExtension: "wopitest"))
        #expect(
            test.url(wopiSrc: Self.wopiSrc, values: [.validatorTestCategory: "OfficeNativeClient"])
                == "https://onenote.example/hosting/WopiTestFrame.aspx?testcategory=OfficeNativeClient&WOPISrc=\(Self.encodedSrc)"
        )
    }

    @Test func templateEdgeCases() {
        let template = ActionURLTemplate("https://x.example/a?<ui=UI_LLCC&><junk><=EMPTY&><n=lower&><unclosed=UI_LLCC&")
        #expect(template.placeholders == [.uiLanguage])
        #expect(
            template.url(wopiSrc: Self.wopiSrc, values: [.uiLanguage: "fr-FR"])
                == "https://x.example/a?ui=fr-FR&<unclosed=UI_LLCC&WOPISrc=\(Self.encodedSrc)")
        #expect(
            ActionURLTemplate("https://x.example/a").url(wopiSrc: Self.wopiSrc)
                == "https://x.example/a?WOPISrc=\(Self.encodedSrc)")
    }

    @Test(arguments: [
        "",
        "not xml at all",
        "<wopi-discovery><net-zone name=\"x\"><app name=\"Word\"></net-zone></wopi-discovery>",
        "<other-root/>",
    ])
    func rejectsMalformedDocuments(xml: String) {
        #expect(throws: WOPIFormatError.self) { try WOPIDiscovery(xml: Data(xml.utf8)) }
    }

    /// One broken app or action is skipped with a warning; the rest of the document is used (issue 16).
    @Test(arguments: [
        "<app><action name=\"view\" ext=\"docx\" urlsrc=\"u\"/></app>",
        "<app name=\"W\"><action name=\"view\"/><action urlsrc=\"u\"/></app>",
    ])
    func skipsBrokenAppsAndActionsWithAWarning(broken: String) throws {
        let xml =
            "<wopi-discovery><net-zone name=\"x\">" + broken
            + "<app name=\"Excel\"><action name=\"view\" ext=\"xlsx\" urlsrc=\"https://e/x\"/></app>"
            + "</net-zone></wopi-discovery>"
        let discovery = try WOPIDiscovery(xml: Data(xml.utf8))
        #expect(discovery.action(named: "view", forExtension: "xlsx") != nil)
        #expect(discovery.action(named: "view", forExtension: "docx") == nil)
        #expect(!discovery.warnings.isEmpty && discovery.warnings.allSatisfy { $0.contains("skipped") })
        #expect(try WOPIDiscovery(xml: Data(Self.document.utf8)).warnings.isEmpty)
    }

    @Test func acceptsAMinimalDocument() throws {
        let discovery = try WOPIDiscovery(xml: Data("<wopi-discovery/>".utf8))
        #expect(discovery.netZones.isEmpty && discovery.proofKey == nil)
    }
}
