extension ValidatorGroup {
    /// `Container`: CheckContainerInfo, child containers, GetEcosystem and the licensing flags.
    static let container = ValidatorGroup(
        name: "Container",
        prerequisites: [Prerequisite.wopiValidator, Prerequisite.userCanWrite, Prerequisite.containers],
        cases: [
            ValidatorCase("containers.CheckContainerInfo") { run in
                let parent = try await run.parentContainer()
                try await run.send(
                    .checkContainerInfo, overrideURL: parent,
                    expect: [
                        .json([
                            .string("Name", required: true), .absoluteURL("HostUrl"), .absoluteURL("SharingUrl"),
                            .bool("UserCanCreateChildFile"), .bool("UserCanCreateChildContainer"),
                            .bool("UserCanDelete"),
                            .bool("UserCanRename"),
                        ]),
                        .noJSONNulls,
                    ])
            },
            ValidatorCase(
                "containers.CreateAndDeleteChildContainer",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildContainer", on: parent)
                    try await run.send(
                        .createChildContainer(.suggested, name: "CreateChildContainerTest"), overrideURL: parent,
                        save: [("NewFolderUrl", "ContainerPointer.Url")])
                    try await run.send(.deleteContainer, overrideURL: try run.saved("NewFolderUrl"))
                }, cleanup: deletingContainers("NewFolderUrl")),
            ValidatorCase(
                "containers.CreateAndDeleteChildContainerDupe",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildContainer", on: parent)
                    let create = WopiOperation.createChildContainer(.suggested, name: "CreateChildContainerTest")
                    try await run.send(create, overrideURL: parent, save: [("NewFolderUrl", "ContainerPointer.Url")])
                    try await run.send(create, overrideURL: parent, save: [("NewFolder2Url", "ContainerPointer.Url")])
                    try await run.send(.deleteContainer, overrideURL: try run.saved("NewFolderUrl"))
                    try await run.send(.deleteContainer, overrideURL: try run.saved("NewFolder2Url"))
                }, cleanup: deletingContainers("NewFolderUrl", "NewFolder2Url")),
            ValidatorCase(
                "containers.CreateAndDeleteChildContainerExactName",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildContainer", on: parent)
                    try await run.send(
                        .createChildContainer(.exactName(overwrite: nil), name: "CreateChildContainerTest"),
                        overrideURL: parent, save: [("NewFolderUrl", "ContainerPointer.Url")])
                    try await run.send(.deleteContainer, overrideURL: try run.saved("NewFolderUrl"))
                }, cleanup: deletingContainers("NewFolderUrl")),
            ValidatorCase(
                "containers.CreateAndDeleteChildContainerExactNameDupe",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildContainer", on: parent)
                    let create = WopiOperation.createChildContainer(
                        .exactName(overwrite: nil), name: "CreateChildContainerTest")
                    try await run.send(create, overrideURL: parent, save: [("NewFolderUrl", "ContainerPointer.Url")])
                    try await run.send(
                        create, overrideURL: parent, expect: [.status([409])],
                        save: [("NewFolder2Url", "ContainerPointer.Url")])
                    try await run.send(.deleteContainer, overrideURL: try run.saved("NewFolderUrl"))
                }, cleanup: deletingContainers("NewFolderUrl", "NewFolder2Url")),
            ValidatorCase("containers.GetEcosystem") { run in
                let parent = try await run.parentContainer()
                try await run.send(
                    .getEcosystem, overrideURL: parent,
                    expect: [.json([.absoluteURL("Url", required: true, mustIncludeAccessToken: true)])])
            },
            ValidatorCase(
                "containers.LicensingPropertiesOnChildFolderMatchWithParentFolder", category: .officeNativeClient,
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.send(
                        .checkContainerInfo, overrideURL: parent,
                        expect: [
                            .json([
                                .bool("UserCanCreateChildFile", equals: true),
                                .bool("UserCanCreateChildContainer", equals: true),
                                .bool("LicenseCheckForEditIsEnabled", required: true),
                                .bool("IsEduUser", required: true),
                            ])
                        ],
                        save: [
                            ("LicenseCheckForEditIsEnabledParentContainer", "LicenseCheckForEditIsEnabled"),
                            ("IsEduUserParentContainer", "IsEduUser"),
                        ])
                    try await run.send(
                        .createChildContainer(.exactName(overwrite: nil), name: "testfolder"), overrideURL: parent,
                        save: [("TestChildFolder", "ContainerPointer.Url")])
                    try await run.send(
                        .checkContainerInfo, overrideURL: try run.saved("TestChildFolder"),
                        expect: [.json(try licensingRules(run))])
                }, cleanup: deletingContainers("TestChildFolder")),
        ])

    /// `RenameContainer`: a new child container renamed, the new name visible in CheckContainerInfo.
    static let renameContainer = ValidatorGroup(
        name: "RenameContainer",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.userCanWrite, Prerequisite.containers,
            Prerequisite.userCanRenameContainer,
        ],
        cases: [
            renameContainerCase("containers.CreateAndRenameChildContainer", to: "RenameContainerTest"),
            renameContainerCase(
                "containers.CreateAndRenameChildContainerAndVerifyReturnedContainerNameIsCorrectlyEncoded",
                to: "container_name"),
        ])

    /// The parent's licensing flags, saved earlier, that a child must repeat.
    static func licensingRules(_ run: CaseRun) throws -> [JSONRule] {
        [
            .bool(
                "LicenseCheckForEditIsEnabled", required: true,
                equals: run.bool("LicenseCheckForEditIsEnabledParentContainer")),
            .bool("IsEduUser", required: true, equals: run.bool("IsEduUserParentContainer")),
        ]
    }

    private static func renameContainerCase(_ name: String, to newName: String) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                let parent = try await run.parentContainer()
                try await run.requireContainerFlag("UserCanCreateChildContainer", on: parent)
                try await run.send(
                    .createChildContainer(.suggested, name: "CreateChildContainerTest"), overrideURL: parent,
                    save: [("NewFolderUrl", "ContainerPointer.Url")])
                let folder = try run.saved("NewFolderUrl")
                try await run.send(.renameContainer(name: newName), overrideURL: folder)
                try await run.send(
                    .checkContainerInfo, overrideURL: folder,
                    expect: [.json([.string("Name", required: true, equals: newName)])])
                try await run.send(.deleteContainer, overrideURL: folder)
            }, cleanup: deletingContainers("NewFolderUrl"))
    }

    /// Cleanup requests: DeleteContainer on each saved URL.
    static func deletingContainers(_ keys: String...) -> @Sendable (CaseRun) async -> Void {
        { run in
            for key in keys { await run.cleanup(.deleteContainer, overrideURL: key) }
        }
    }
}
