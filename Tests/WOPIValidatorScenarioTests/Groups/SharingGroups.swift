extension ValidatorGroup {
    /// `GetSharingUrlForFileWithTypeReadOnly`: GetShareUrl `ReadOnly` on the test file.
    static let getSharingUrlForFileWithTypeReadOnly = fileShareURLGroup(type: "ReadOnly")
    /// `GetSharingUrlForFileWithTypeReadWrite`: GetShareUrl `ReadWrite` on the test file.
    static let getSharingUrlForFileWithTypeReadWrite = fileShareURLGroup(type: "ReadWrite")
    /// `GetSharingUrlForFileWithUnknownType`: GetShareUrl with a type the host cannot know → 501.
    static let getSharingUrlForFileWithUnknownType = ValidatorGroup(
        name: "GetSharingUrlForFileWithUnknownType",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.shareUrlTypesForFile("SupportedShareUrlTypesForFilePrereq"),
        ],
        cases: [
            ValidatorCase("files.GetShareUrlForUnknownUrlType") { run in
                try await run.send(.checkFileInfo)
                try await run.send(.getShareUrl(type: unknownShareURLType), expect: [.status([501])])
            }
        ])

    /// `GetSharingUrlForContainerWithTypeReadOnly`: GetShareUrl `ReadOnly` on the test file's parent container.
    static let getSharingUrlForContainerWithTypeReadOnly = containerShareURLGroup(type: "ReadOnly")
    /// `GetSharingUrlForContainerWithTypeReadWrite`: GetShareUrl `ReadWrite` on the test file's parent container.
    static let getSharingUrlForContainerWithTypeReadWrite = containerShareURLGroup(type: "ReadWrite")
    /// `GetSharingUrlForContainerWithUnknownType`: GetShareUrl with an unknown type on the parent container → 501.
    static let getSharingUrlForContainerWithUnknownType = ValidatorGroup(
        name: "GetSharingUrlForContainerWithUnknownType",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.containers,
            Prerequisite.shareUrlTypesForContainer("SupportedShareUrlTypesForContainerPrereq"),
        ],
        cases: [
            ValidatorCase("containers.GetShareUrlForUnknownUrlType") { run in
                let parent = try await run.parentContainer()
                try await run.send(.checkContainerInfo, overrideURL: parent)
                try await run.send(
                    .getShareUrl(type: unknownShareURLType), overrideURL: parent, expect: [.status([501])])
            }
        ])

    /// The `X-WOPI-UrlType` the validator sends to provoke a 501.
    private static let unknownShareURLType = "UnknownType"

    /// The share URL a host returns: `ShareUrl`, an absolute URL (no access token required).
    private static let shareURLRule = ResponseRule.json([.absoluteURL("ShareUrl", required: true)])

    private static func fileShareURLGroup(type: String) -> ValidatorGroup {
        ValidatorGroup(
            name: "GetSharingUrlForFileWithType\(type)",
            prerequisites: [
                Prerequisite.wopiValidator,
                Prerequisite.shareUrlTypesForFile("ShareUrlType\(type)ForFilePrereq", containing: type),
            ],
            cases: [
                ValidatorCase("files.GetShareUrlFor\(type)UrlType") { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(.getShareUrl(type: type), expect: [shareURLRule])
                }
            ])
    }

    private static func containerShareURLGroup(type: String) -> ValidatorGroup {
        ValidatorGroup(
            name: "GetSharingUrlForContainerWithType\(type)",
            prerequisites: [
                Prerequisite.wopiValidator, Prerequisite.containers,
                Prerequisite.shareUrlTypesForContainer("ShareUrlType\(type)ForContainerPrereq", containing: type),
            ],
            cases: [
                ValidatorCase("containers.GetShareUrlFor\(type)UrlType") { run in
                    let parent = try await run.parentContainer()
                    try await run.send(.checkContainerInfo, overrideURL: parent)
                    try await run.send(.getShareUrl(type: type), overrideURL: parent, expect: [shareURLRule])
                }
            ])
    }
}
