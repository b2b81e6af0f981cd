import Foundation
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Names as a storage provider's users have them, through the host's routes, in-process (`WOPIHostConfiguration.fileNameRules`).
@Suite struct FileNameTests {
    /// Dot names and `# % [ ] { } ^` and the backtick, which the default rules accept.
    static let userNames = [
        ".gitignore", "Notes #3.docx", "100% [final].xlsx", "{draft}^2.txt", "`quoted`.md", ".~lock.Report.docx#",
        ".Report.docx.tmp",
    ]

    func putRelative(
        _ wopi: TestHost, _ url: String, _ headers: [String: String], body: String
    ) async throws -> HTTP.Reply {
        try await wopi.post(url, headers.merging(["X-WOPI-Override": "PUT_RELATIVE"]) { $1 }, body: body)
    }

    func childNames(_ wopi: TestHost) async throws -> Set<String> {
        let root = try await wopi.host.storage.rootContainer(forUser: wopi.user)
        let children = try await wopi.get(wopi.containerURL(root.id, "/children")).json()
        let files = try #require(children["ChildFiles"] as? [[String: Any]])
        let containers = try #require(children["ChildContainers"] as? [[String: Any]])
        return Set((files + containers).compactMap { $0["Name"] as? String })
    }

    @Test func userNamesRoundTripThroughPutRelativeFile() async throws {
        try await TestHost.run { wopi in
            let source = try await wopi.seedFile("Source.docx", "source")
            for name in Self.userNames {
                let reply = try await putRelative(
                    wopi, wopi.fileURL(source.id), ["X-WOPI-RelativeTarget": UTF7.encode(name)],
                    body: "content of \(name)")
                #expect(reply.status == 200, "\(name): \(reply.text)")
                #expect(try reply.json()["Name"] as? String == name)
                let url = try #require(try reply.json()["Url"] as? String)
                #expect(try await wopi.get(url).json()["BaseFileName"] as? String == name)
                let contents = url.replacingOccurrences(of: "?", with: "/contents?")
                #expect(try await wopi.get(contents).text == "content of \(name)")
            }
            #expect(try await childNames(wopi) == Set(Self.userNames + ["Source.docx"]))
            // Suggested mode keeps such names too (a leading dot there means "an extension", by the protocol).
            let suggested = try await putRelative(
                wopi, wopi.fileURL(source.id), ["X-WOPI-SuggestedTarget": UTF7.encode("Plan #2 [v3] 50%.docx")],
                body: "s")
            #expect(try suggested.json()["Name"] as? String == "Plan #2 [v3] 50%.docx")
            // What no file system or Office client can hold is still refused, with the reason.
            for bad in ["a:b.docx", "CON.docx", "lpt1", "x|y.txt", "a\\b.txt"] {
                let refused = try await putRelative(
                    wopi, wopi.fileURL(source.id), ["X-WOPI-RelativeTarget": UTF7.encode(bad)], body: "x")
                #expect(refused.status == 400, "\(bad)")
                #expect(refused.header("X-WOPI-InvalidFileNameError") != nil)
            }
        }
    }

    @Test func userNamesRoundTripThroughRenameFileAndRenameContainer() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("Draft.docx", "draft")
            let url = wopi.fileURL(file.id)
            for base in ["Notes #3", "100% [final]", "{draft}^2", "`quoted`", ".hidden"] {
                let renamed = try await wopi.post(
                    url, ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": UTF7.encode(base)])
                #expect(renamed.status == 200, "\(base): \(renamed.text)")
                #expect(try renamed.json()["Name"] as? String == base)
                #expect(try await wopi.get(url).json()["BaseFileName"] as? String == base + ".docx")
                #expect(try await childNames(wopi) == [base + ".docx"])
            }
            let root = try await wopi.host.storage.rootContainer(forUser: wopi.user)
            let folder = try await wopi.host.storage.createContainer(named: "Folder", in: root.id)
            for name in [".config", "[archive] #1 {old} 100%^`"] {
                let renamed = try await wopi.post(
                    wopi.containerURL(folder.id),
                    ["X-WOPI-Override": "RENAME_CONTAINER", "X-WOPI-RequestedName": UTF7.encode(name)])
                #expect(renamed.status == 200, "\(name): \(renamed.text)")
                #expect(try await wopi.get(wopi.containerURL(folder.id)).json()["Name"] as? String == name)
            }
        }
    }

    @Test func itemsWhoseNamesBreakTheRulesCanBeListedOpenedAndRenamed() async throws {
        var configuration = WOPIHostConfiguration()
        configuration.fileNameRules = .officeMobile
        try await TestHost.run(configuration: configuration) { wopi in
            // Stored by another program (the storage takes them); this host's rules refuse them.
            let dotted = try await wopi.seedFile(".gitignore", "ignored")
            let hashed = try await wopi.seedFile("Notes #3.docx", "notes")
            #expect(try await childNames(wopi) == ["Untitled.gitignore", "Notes -3.docx"])
            #expect(
                try await wopi.get(wopi.fileURL(dotted.id)).json()["BaseFileName"] as? String == "Untitled.gitignore")
            #expect(try await wopi.get(wopi.fileURL(hashed.id, "/contents")).text == "notes")
            let renamed = try await wopi.post(
                wopi.fileURL(hashed.id), ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "Notes 3"])
            #expect(try renamed.status == 200 && (try renamed.json()["Name"] as? String) == "Notes 3")
            #expect(try await wopi.host.storage.file(hashed.id).name == "Notes 3.docx")
            // New names follow the configured rules.
            let refused = try await putRelative(
                wopi, wopi.fileURL(hashed.id), ["X-WOPI-RelativeTarget": UTF7.encode("Plan #2.docx")], body: "x")
            #expect(refused.status == 400 && refused.header("X-WOPI-InvalidFileNameError") != nil)
        }
    }
}
