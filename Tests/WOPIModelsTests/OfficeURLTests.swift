import Foundation
import Testing
import WOPIModels

@Suite struct OfficeURLTests {
    static let docsExample = "ms-word:ofe|u|https://contoso/wopi/file/12312|d|Contoso|e|a3243d|n|document1.docx|a|App"

    @Test func officeAppSchemesAndPackages() {
        #expect(OfficeApp.word.scheme == "ms-word")
        #expect(OfficeApp.excel.returnScheme == "ms-excel-tp")
        #expect(OfficeApp.powerpoint.supportDetectionScheme == "ms-powerpoint-wopi-support-1605")
        #expect(OfficeApp.word.androidPackageName == "com.microsoft.office.word")
        #expect(
            OfficeApp.excel.googlePlayURL == "https://play.google.com/store/apps/details?id=com.microsoft.office.excel")
        #expect(OfficeApp.returnScheme(forAppParameter: "Word") == "ms-word-tp")
        #expect(OfficeApp.returnScheme(forAppParameter: "powerpoint") == "ms-powerpoint-tp")
        #expect(OfficeApp.returnScheme(forAppParameter: "officemobile") == "ms-officemobile-tp")
        #expect(OfficeApp.returnScheme(forAppParameter: nil) == "ms-officemobile-tp")
    }

    @Test(arguments: [
        ("docx", OfficeApp.word), ("DOCM", .word), (".dotx", .word), ("dotm", .word), ("doc", .word), ("dot", .word),
        ("odt", .word), ("xlsx", .excel), ("xltx", .excel), ("xlsb", .excel), ("xlsm", .excel), ("xls", .excel),
        ("csv", .excel), ("ods", .excel), ("pptx", .powerpoint), ("ppsx", .powerpoint), ("potm", .powerpoint),
        ("potx", .powerpoint), ("ppsm", .powerpoint), ("pptm", .powerpoint), ("thmx", .powerpoint),
        ("ppt", .powerpoint), ("pps", .powerpoint), ("pot", .powerpoint), ("odp", .powerpoint),
    ])
    func mapsEveryMobileFileType(ext: String, app: OfficeApp) {
        #expect(OfficeApp(fileExtension: ext) == app)
    }

    @Test func fileTypeEdgeCases() {
        #expect(OfficeApp(fileExtension: "pdf") == nil)
        #expect(OfficeApp(fileName: "Budget.XLSX") == .excel)
        #expect(OfficeApp(fileName: "README") == nil)
        #expect(OfficeApp.isLegacy(fileExtension: ".doc"))
        #expect(!OfficeApp.isLegacy(fileExtension: "docx"))
    }

    @Test func buildsAndParsesTheDocsExample() throws {
        let url = OfficeOpenURL(
            app: .word, mode: .edit, wopiSrc: URL(string: "https://contoso/wopi/file/12312")!, serviceID: "Contoso",
            userID: "a3243d", fileName: "document1.docx")
        #expect(url.string == Self.docsExample)
        #expect(try OfficeOpenURL(string: Self.docsExample) == url)
        #expect(url.url?.absoluteString == Self.docsExample.replacingOccurrences(of: "|", with: "%7C"))
        #expect(try OfficeOpenURL(string: url.url!.absoluteString) == url)
    }

    @Test func encodesValuesSoPipesSurvive() throws {
        let url = OfficeOpenURL(
            app: .excel, mode: .view, wopiSrc: URL(string: "https://wopi.contoso.com/wopi/files/a%2Fb?x=1&y=2")!,
            serviceID: "Contoso | Drive", userID: "u#1", fileName: "Q4 100%+ résumé|x.xlsx", launcher: .web,
            passbackScheme: "contosodrive", documentContext: "folder|Q4 & more")
        let text = url.string
        #expect(
            text == "ms-excel:ofv|u|https://wopi.contoso.com/wopi/files/a%252Fb?x=1&y=2|d|Contoso%20%7C%20Drive"
                + "|e|u%231|n|Q4%20100%25%2B%20r%C3%A9sum%C3%A9%7Cx.xlsx|a|Web|p|contosodrive|c|folder%7CQ4%20&%20more")
        #expect(url.url?.absoluteString == text.replacingOccurrences(of: "|", with: "%7C"))
        #expect(try OfficeOpenURL(string: text) == url)
    }

    @Test func parsesTolerantly() throws {
        let whole =
            "ms-powerpoint:OFE%7Cu%7Chttps%3A%2F%2Fc%2Fwopi%2Ffiles%2F1%7Cd%7CC%7Ce%7Cu%7Cn%7Ca%20b.pptx%7Ca%7Capp"
        let parsed = try OfficeOpenURL(string: whole)
        #expect(parsed.app == .powerpoint && parsed.mode == .edit && parsed.launcher == .app)
        #expect(parsed.fileName == "a b.pptx")
        #expect(parsed.wopiSrc.absoluteString == "https://c/wopi/files/1")
        let rawContext = try OfficeOpenURL(string: Self.docsExample + "|x|ignored|c|a|b|c")
        #expect(rawContext.documentContext == "a|b|c")
    }

    @Test(arguments: [
        "",
        "ms-word",
        "notoffice:ofe|u|https://c/w|d|C|e|u|n|a.docx|a|App",
        "ms-word:open|u|https://c/w|d|C|e|u|n|a.docx|a|App",
        "ms-word:ofe|d|C|e|u|n|a.docx|a|App",
        "ms-word:ofe|u|relative/path|d|C|e|u|n|a.docx|a|App",
        "ms-word:ofe|u|https://c/w|d|C|e|u|n|a.docx|a|Desktop",
        "ms-word:ofe|u|https://c/w|d|C|e|u|n|a%zz.docx|a|App",
        "ms-word:ofe|u|https://c/w|d|C|e|u|n|a.docx|a",
        "ms-word:ofe|u|https://c/w|d|C|e|u|n|a.docx",
    ])
    func rejectsMalformedOpenURLs(text: String) {
        #expect(throws: WOPIFormatError.self) { try OfficeOpenURL(string: text) }
    }

    @Test func passbackRoundTrips() throws {
        let example = "contosodrive:ofe|u|https://contoso/Q4/budget.docx|z|no|c|folderviewQ4"
        let parsed = try OfficePassbackURL(string: example)
        #expect(parsed.scheme == "contosodrive" && parsed.mode == .edit && !parsed.uploadPending)
        #expect(parsed.documentURL == "https://contoso/Q4/budget.docx" && parsed.documentContext == "folderviewQ4")
        #expect(parsed.string == example)
        let pending = OfficePassbackURL(scheme: "x", documentURL: "https://c/a b", uploadPending: true)
        #expect(pending.string == "x:ofe|u|https://c/a%20b|z|yes")
        #expect(try OfficePassbackURL(string: pending.string) == pending)
        #expect(throws: WOPIFormatError.self) { try OfficePassbackURL(string: "x:ofe|u|https://c|z|maybe") }
        #expect(throws: WOPIFormatError.self) { try OfficePassbackURL(string: "x:ofe|z|yes") }
    }

    @Test func randomValuesRoundTrip() throws {
        let pool = Array("aZ0 |%+#&=?/:;é日😀\\\"<>-_.~")
        func random() -> String { String((0..<Int.random(in: 1...12)).map { _ in pool.randomElement()! }) }
        for _ in 0..<500 {
            let url = OfficeOpenURL(
                app: OfficeApp.allCases.randomElement()!, mode: .edit, wopiSrc: URL(string: "https://h/wopi/files/1")!,
                serviceID: random(), userID: random(), fileName: random(), passbackScheme: "p",
                documentContext: random())
            #expect(try OfficeOpenURL(string: url.string) == url, "\(url.string)")
            let foundationURL = try #require(url.url, "\(url.string)")
            if !(url.serviceID + url.userID + url.fileName).contains("|") {
                #expect(try OfficeOpenURL(string: foundationURL.absoluteString) == url, "\(foundationURL)")
            }
        }
    }

    @Test func randomGarbageNeverCrashes() {
        let pool = Array("ms-word:ofe|u%7Cz")
        for _ in 0..<2000 {
            let text = String((0..<Int.random(in: 0...30)).map { _ in pool.randomElement()! })
            _ = try? OfficeOpenURL(string: text)
            _ = try? OfficePassbackURL(string: text)
        }
    }
}
