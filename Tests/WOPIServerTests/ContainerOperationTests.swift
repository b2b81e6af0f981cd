import Foundation
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Container and ecosystem operations through the host's routes, in-process (Docs/wopi-protocol.md §7, §8).
@Suite struct ContainerOperationTests {
    @Test func browseFromTheEcosystemRoot() async throws {
        try await TestHost.run { wopi in
            let root = try await wopi.host.storage.rootContainer(forUser: wopi.user)
            _ = try await wopi.seedFile("Notes.docx")
            _ = try await wopi.seedFile("Data.XLSX")
            _ = try await wopi.host.storage.createContainer(named: "Archive", in: root.id)
            let ecosystem = "\(wopi.wopiRoot)/ecosystem/root_container_pointer?access_token=\(wopi.token(.ecosystem))"
            let pointer = try await wopi.get(ecosystem).json()
            let rootURL = try #require((pointer["ContainerPointer"] as? [String: String])?["Url"])
            let info = try await wopi.get(rootURL).json()
            #expect(info["Name"] as? String == "ana")
            #expect(info["IsEduUser"] as? Bool == false && info["LicenseCheckForEditIsEnabled"] as? Bool == false)
            #expect(info["UserCanDelete"] as? Bool == false)
            let childrenURL = rootURL.replacingOccurrences(of: "?", with: "/children?")
            let children = try await wopi.get(childrenURL).json()
            let files = try #require(children["ChildFiles"] as? [[String: Any]])
            #expect(Set(files.compactMap { $0["Name"] as? String }) == ["Notes.docx", "Data.XLSX"])
            #expect(
                files.allSatisfy {
                    $0["Size"] is Int && $0["Version"] is String
                        && ($0["Url"] as? String)?.contains("access_token=") == true
                })
            let containers = try #require(children["ChildContainers"] as? [[String: String]])
            #expect(containers.map { $0["Name"] } == ["Archive"])
            // Extension filter, case-insensitive; containers are never filtered.
            let filtered = try await wopi.get(childrenURL, headers: ["X-WOPI-FileExtensionFilterList": ".xlsx,.pptx"])
                .json()
            #expect((filtered["ChildFiles"] as? [[String: Any]])?.compactMap { $0["Name"] as? String } == ["Data.XLSX"])
            #expect((filtered["ChildContainers"] as? [Any])?.count == 1)
            // Root ancestry is empty.
            let ancestry = try await wopi.get(rootURL.replacingOccurrences(of: "?", with: "/ancestry?")).json()
            #expect((ancestry["AncestorsWithRootFirst"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func createRenameAndDeleteContainersAndFiles() async throws {
        try await TestHost.run { wopi in
            let root = try await wopi.host.storage.rootContainer(forUser: wopi.user)
            let url = wopi.containerURL(root.id)
            func post(_ override: String, _ headers: [String: String]) async throws -> HTTP.Reply {
                try await wopi.post(url, headers.merging(["X-WOPI-Override": override]) { $1 })
            }
            let made = try await post("CREATE_CHILD_CONTAINER", ["X-WOPI-RelativeTarget": "Projects"])
            #expect(made.status == 200)
            let pointer = try #require(try made.json()["ContainerPointer"] as? [String: String])
            #expect(pointer["Name"] == "Projects")
            #expect((try made.json()["ContainerInfo"] as? [String: Any])?["Name"] as? String == "Projects")
            #expect(try await post("CREATE_CHILD_CONTAINER", ["X-WOPI-RelativeTarget": "Projects"]).status == 409)
            let again = try await post("CREATE_CHILD_CONTAINER", ["X-WOPI-SuggestedTarget": "Projects"])
            #expect(
                try again.status == 200
                    && (try again.json()["ContainerPointer"] as? [String: String])?["Name"] != "Projects")
            #expect(
                try await post("CREATE_CHILD_CONTAINER", ["X-WOPI-SuggestedTarget": "a", "X-WOPI-RelativeTarget": "b"])
                    .status == 501)

            let projectURL = try #require(pointer["Url"])
            let file = try await wopi.post(
                projectURL,
                ["X-WOPI-Override": "CREATE_CHILD_FILE", "X-WOPI-RelativeTarget": "madeup+AF8-name.wopitestx"])
            #expect(try file.status == 200 && (try file.json()["Name"] as? String) == "madeup_name.wopitestx")
            let fileURL = try #require(try file.json()["Url"] as? String)
            #expect(try await wopi.get(fileURL).json()["Size"] as? Int == 0)
            let dup = try await wopi.post(
                projectURL, ["X-WOPI-Override": "CREATE_CHILD_FILE", "X-WOPI-RelativeTarget": "madeup_name.wopitestx"])
            #expect(dup.status == 409)
            let suggested = try await wopi.post(
                projectURL, ["X-WOPI-Override": "CREATE_CHILD_FILE", "X-WOPI-SuggestedTarget": ".docx"])
            #expect(
                try suggested.status == 200 && (try suggested.json()["Name"] as? String)?.hasSuffix(".docx") == true)
            #expect(
                try await wopi.post(
                    projectURL,
                    [
                        "X-WOPI-Override": "CREATE_CHILD_FILE", "X-WOPI-SuggestedTarget": "a.docx",
                        "X-WOPI-RelativeTarget": "b.docx",
                    ]
                ).status == 501)
            // Licensing flags of a new child equal the parent's.
            let childInfo = try await wopi.get(fileURL).json()
            let parentInfo = try await wopi.get(projectURL).json()
            #expect(childInfo["IsEduUser"] as? Bool == parentInfo["IsEduUser"] as? Bool)
            #expect(
                childInfo["LicenseCheckForEditIsEnabled"] as? Bool == parentInfo["LicenseCheckForEditIsEnabled"]
                    as? Bool)

            // A non-empty container cannot be deleted; rename keeps the container usable under its new name.
            #expect(try await wopi.post(projectURL, ["X-WOPI-Override": "DELETE_CONTAINER"]).status == 409)
            let renamed = try await wopi.post(
                projectURL, ["X-WOPI-Override": "RENAME_CONTAINER", "X-WOPI-RequestedName": "container+AF8-name"])
            #expect(try renamed.status == 200 && (try renamed.json()["Name"] as? String) == "container_name")
            #expect(try await wopi.get(projectURL).json()["Name"] as? String == "container_name")
            #expect(
                try await wopi.post(projectURL, ["X-WOPI-Override": "RENAME_CONTAINER", "X-WOPI-RequestedName": "a/b"])
                    .status == 400)
            let emptyURL = try #require((try again.json()["ContainerPointer"] as? [String: String])?["Url"])
            #expect(try await wopi.post(emptyURL, ["X-WOPI-Override": "DELETE_CONTAINER"]).status == 200)
            #expect(try await wopi.get(emptyURL).status == 404)
            // The new container has ancestors and an ecosystem pointer.
            let ancestry = try await wopi.get(projectURL.replacingOccurrences(of: "?", with: "/ancestry?")).json()
            #expect((ancestry["AncestorsWithRootFirst"] as? [[String: String]])?.map { $0["Name"] } == ["ana"])
            #expect(
                try await wopi.get(projectURL.replacingOccurrences(of: "?", with: "/ecosystem_pointer?")).status == 200)
        }
    }

    @Test func getFileWopiSrcResolvesPathsIDsAndURLs() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("Plan.docx")
            let ecosystem = "\(wopi.wopiRoot)/ecosystem?access_token=\(wopi.token(.ecosystem))"
            for name in ["/Plan.docx", file.id.rawValue, "\(wopi.wopiRoot)/files/\(file.id)"] {
                let reply = try await wopi.post(
                    ecosystem, ["X-WOPI-Override": "GET_WOPI_SRC_WITH_ACCESS_TOKEN", "X-WOPI-HostNativeFileName": name])
                let url = try #require(try reply.json()["Url"] as? String, "\(name)")
                #expect(url.contains("access_token_ttl="))
                #expect(try await wopi.get(url).json()["BaseFileName"] as? String == "Plan.docx")
            }
            let missing = try await wopi.post(
                ecosystem,
                ["X-WOPI-Override": "GET_WOPI_SRC_WITH_ACCESS_TOKEN", "X-WOPI-HostNativeFileName": "/nope.docx"])
            #expect(missing.status == 404)
        }
    }
}
