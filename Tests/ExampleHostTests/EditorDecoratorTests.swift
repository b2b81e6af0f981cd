import Foundation
import Testing
import WOPITestSupport

/// The example host's decorator (`Examples/wopi-host/EditorDecorator.swift`) fills the CheckFileInfo properties that
/// Collabora Online and ONLYOFFICE read, per user and item, on the real `wopi-host serve`.
@Suite struct EditorDecoratorTests {
    @Test("the owner, an admin: co-editing properties; a secure viewer: a watermark; a viewer: none")
    func propertiesPerUserAndItem() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.url.path
        let host = try HostProcess(dataDirectory: directory.url, extraArguments: ["--admin", "demo"])
        try await host.serving { _ in
            for (user, role) in [("carol", ["--role", "secure-viewer"]), ("dave", ["--view"])] {
                _ = try await HostProcess.run(["user", "add", user, "--password-stdin", "--data", data], input: "pw\n")
                _ = try await HostProcess.run(
                    ["share", "--user", "demo", "Welcome.docx", "--with", user, "--data", data] + role)
            }

            let demo = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
            let owner = try await HTTP.get("\(demo.wopiSrc)?access_token=\(demo.accessToken)").json()
            #expect(owner["IsAdminUser"] as? Bool == true)
            #expect(owner["IsUserLocked"] as? Bool == false)
            #expect(owner["EnableOwnerTermination"] as? Bool == true)
            #expect(owner["EnableShare"] as? Bool == true)
            #expect(owner["UserCanReview"] as? Bool == true)
            #expect(owner["SupportsReviewing"] as? Bool == true)
            #expect(owner["WatermarkText"] == nil && owner["CopyPasteRestrictions"] == nil)
            #expect(owner["DisablePrint"] == nil && owner["DisableCopy"] == nil)
            let extra = try #require(owner["UserExtraInfo"] as? [String: String])
            #expect(extra["avatar"]?.hasPrefix("data:image/svg+xml;base64,") == true)
            #expect(extra["mail"] == "demo@example.com", "demo signs in with a mail address")
            #expect(owner["FileUrl"] is String, "the deployment hands out a FileUrl by default")

            let carol = try await HostProcess.token(
                data: directory.url, user: "carol", file: "Shared with me/Welcome.docx")
            let viewer = try await HTTP.get("\(carol.wopiSrc)?access_token=\(carol.accessToken)").json()
            #expect(viewer["IsAdminUser"] as? Bool == false)
            #expect(viewer["EnableOwnerTermination"] as? Bool == false && viewer["EnableShare"] as? Bool == false)
            #expect(viewer["UserCanReview"] as? Bool == false)
            #expect((viewer["WatermarkText"] as? String)?.contains("carol") == true)
            for key in ["DisablePrint", "DisableExport", "HideExportOption", "DisableCopy"] {
                #expect(viewer[key] as? Bool == true, "\(key) for a view-only grantee")
            }
            #expect(viewer["CopyPasteRestrictions"] as? String == "CurrentDocumentOnly")
            #expect(viewer["FileUrl"] == nil, "without proof keys a secure viewer reads nothing outside the editor")

            let dave = try await HostProcess.token(
                data: directory.url, user: "dave", file: "Shared with me/Welcome.docx")
            let plain = try await HTTP.get("\(dave.wopiSrc)?access_token=\(dave.accessToken)").json()
            #expect(plain["UserCanWrite"] as? Bool == false && plain["ReadOnly"] as? Bool == true)
            #expect(plain["WatermarkText"] == nil && plain["DisablePrint"] == nil, "a viewer is no secure viewer")
            #expect(plain["FileUrl"] is String)

            // Avatars are drawn once per name and kept: each user still gets their own.
            let viewerExtra = try #require(viewer["UserExtraInfo"] as? [String: String])
            #expect(viewerExtra["avatar"] != nil && viewerExtra["avatar"] != extra["avatar"])
            #expect(viewerExtra["mail"] == nil, "carol signs in with a name, not a mail address")
            let ownerAgain = try await HTTP.get("\(demo.wopiSrc)?access_token=\(demo.accessToken)").json()
            #expect((ownerAgain["UserExtraInfo"] as? [String: String])?["avatar"] == extra["avatar"])
        }
    }
}
