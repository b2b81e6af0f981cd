import Foundation

/// The `OfficeOnline` cases of groups that otherwise run in every view (facts from `TestCases.xml`).
enum OfficeOnlineCases {
    /// `HostUrls` (CheckFileInfoSchema): no Host* or other URL property may point at the OneNote Online action
    /// URLs (`https://onenote.officeapps(-df).live.com…`); absent properties pass.
    static let hostUrls = ValidatorCase("HostUrls", category: .officeOnline) { run in
        let reply = try await run.send(.checkFileInfo)
        guard let document = reply.json else { return try run.fail("the CheckFileInfo body is not JSON") }
        let offending = urlProperties.filter { property in
            guard let url = document.select(property)?.stringValue else { return false }
            return url.range(of: #"^https://onenote\.officeapps(-df)?\.live\.com.+"#, options: .regularExpression)
                != nil
        }
        if !offending.isEmpty {
            return try run.fail("\(offending.joined(separator: ", ")) must not be Office Online action URLs")
        }
    }

    /// The properties `HostUrls` checks.
    static let urlProperties = [
        "CloseUrl", "DownloadUrl", "FileSharingUrl", "FileUrl", "FileVersionUrl", "HostEditUrl", "HostEmbeddedViewUrl",
        "HostViewUrl", "SignInUrl", "SignoutUrl", "WorkflowUrl",
    ]

    /// `PutRelativeFile.IncludeHostUrls` (PutRelativeFile): a suggested-name PutRelativeFile answers absolute
    /// `HostEditUrl` and `HostViewUrl`.
    static let putRelativeFileIncludeHostUrls = ValidatorCase(
        "PutRelativeFile.IncludeHostUrls", category: .officeOnline,
        requests: { run in
            try await run.send(
                .putRelativeFile(.suggested, name: "new_file.wopitest", document: .wordSimpleDocument),
                expect: [
                    .json([.absoluteURL("HostEditUrl", required: true), .absoluteURL("HostViewUrl", required: true)])
                ],
                save: [("NewFileUrl", "Url")])
        }, cleanup: ValidatorGroup.deleting("NewFileUrl"))
}
