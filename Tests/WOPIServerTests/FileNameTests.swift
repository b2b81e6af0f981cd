import Foundation
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Names as a storage provider's users have them, over real HTTP against the host (`WOPIHostConfiguration.fileNameRules`).
@Suite struct FileNameTests {
    /// Dot names and `# % [ ] { } ^` and the backtick, which the default rules accept.
    static let userNames = [
        ".gitignore", "Notes #3.docx", "100% [final].xlsx", "{draft}^2.txt", "`quoted`.md", ".~lock.Report.docx#",
        ".Report.docx.tmp",
    ]

    func putRelative(_ url: String, _ headers: [String: String], body: String) async throws -> HTTP.Reply {
        try await HTTP.post(url, headers.merging(["X-WOPI-Override": "PUT_RELATIVE"]) { $1 }, body: body)
    }

    func childNames(_ live: LiveHost) async throws -> Set<String> {
        let root = try await live.host.storage.rootContainer(forUser: live.user)
        let children = try await HTTP.get(live.containerURL(root.id, "/children")).json()
        let files = try #require(children["ChildFiles"] as? [[String: Any]])
        let containers = try #require(children["ChildContainers"] as? [[String: Any]])
        return Set((files + containers).compactMap { $0["Name"] as? String })
    }

    @Test func userNamesRoundTripThroughPutRelativeFile() async throws {
        try await LiveHost.run { live in
            let source = try await live.seedFile("Source.docx", "source")
            for name in Self.userNames {
                let reply = try await putRelative(
                    live.fileURL(source.id), ["X-WOPI-RelativeTarget": UTF7.encode(name)], body: "content of \(name)")
                #expect(reply.status == 200, "\(name): \(reply.text)")
                #expect(try reply.json()["Name"] as? String == name)
                let url = try #require(try reply.json()["Url"] as? String)
                #expect(try await HTTP.get(url).json()["BaseFileName"] as? String == name)
                let contents = url.replacingOccurrences(of: "?", with: "/contents?")
                #expect(try await HTTP.get(contents).text == "content of \(name)")
            }
            #expect(try await childNames(live) == Set(Self.userNames + ["Source.docx"]))
            // Suggested mode keeps such names too (a leading dot there means "an extension", by the protocol).
            let suggested = try await putRelative(
                live.fileURL(source.id), ["X-WOPI-SuggestedTarget": UTF7.encode("Plan #2 [v3] 50%.docx")], body: "s")
            #expect(try suggested.json()["Name"] as? String == "Plan #2 [v3] 50%.docx")
            // What no file system or Office client can hold is still refused, with the reason.
            for bad in ["a:b.docx", "CON.docx", "lpt1", "x|y.txt", "a\\b.txt"] {
                let refused = try await putRelative(
                    live.fileURL(source.id), ["X-WOPI-RelativeTarget": UTF7.encode(bad)], body: "x")
                #expect(refused.status == 400, "\(bad)")
                #expect(refused.header("X-WOPI-InvalidFileNameError") != nil)
            }
        }
    }

    @Test func userNamesRoundTripThroughRenameFileAndRenameContainer() async throws {
        try await LiveHost.run { live in
            let file = try await live.seedFile("Draft.docx", "draft")
            let url = live.fileURL(file.id)
            for base in ["Notes #3", "100% [final]", "{draft}^2", "`quoted`", ".hidden"] {
                let renamed = try await HTTP.post(
                    url, ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": UTF7.encode(base)])
                #expect(renamed.status == 200, "\(base): \(renamed.text)")
                #expect(try renamed.json()["Name"] as? String == base)
                #expect(try await HTTP.get(url).json()["BaseFileName"] as? String == base + ".docx")
                #expect(try await childNames(live) == [base + ".docx"])
            }
            let root = try await live.host.storage.rootContainer(forUser: live.user)
            let folder = try await live.host.storage.createContainer(named: "Folder", in: root.id)
            for name in [".config", "[archive] #1 {old} 100%^`"] {
                let renamed = try await HTTP.post(
                    live.containerURL(folder.id),
                    ["X-WOPI-Override": "RENAME_CONTAINER", "X-WOPI-RequestedName": UTF7.encode(name)])
                #expect(renamed.status == 200, "\(name): \(renamed.text)")
                #expect(try await HTTP.get(live.containerURL(folder.id)).json()["Name"] as? String == name)
            }
        }
    }

    @Test func itemsWhoseNamesBreakTheRulesCanBeListedOpenedAndRenamed() async throws {
        var configuration = WOPIHostConfiguration()
        configuration.fileNameRules = .officeMobile
        try await LiveHost.run(configuration: configuration) { live in
            // Stored by another program (the storage takes them); this host's rules refuse them.
            let dotted = try await live.seedFile(".gitignore", "ignored")
            let hashed = try await live.seedFile("Notes #3.docx", "notes")
            #expect(try await childNames(live) == ["Untitled.gitignore", "Notes -3.docx"])
            #expect(
                try await HTTP.get(live.fileURL(dotted.id)).json()["BaseFileName"] as? String == "Untitled.gitignore")
            #expect(try await HTTP.get(live.fileURL(hashed.id, "/contents")).text == "notes")
            let renamed = try await HTTP.post(
                live.fileURL(hashed.id), ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "Notes 3"])
            #expect(try renamed.status == 200 && (try renamed.json()["Name"] as? String) == "Notes 3")
            #expect(try await live.host.storage.file(hashed.id).name == "Notes 3.docx")
            // New names follow the configured rules.
            let refused = try await putRelative(
                live.fileURL(hashed.id), ["X-WOPI-RelativeTarget": UTF7.encode("Plan #2.docx")], body: "x")
            #expect(refused.status == 400 && refused.header("X-WOPI-InvalidFileNameError") != nil)
        }
    }
}
