private typealias V = ValidatorValues

extension ValidatorGroup {
    /// `EnumerateAncestorsAndChildren`: ancestry of the file and of containers, children with filters.
    static let enumerateAncestorsAndChildren = ValidatorGroup(
        name: "EnumerateAncestorsAndChildren", prerequisites: [Prerequisite.wopiValidator, Prerequisite.containers],
        cases: [
            ValidatorCase("files.EnumerateAncestors") { run in
                try await run.send(.enumerateAncestors, expect: [.json(firstAncestorRules)])
            },
            childrenCase("containers.EnumerateChildren", filter: nil),
            ValidatorCase("containers.EnumerateChildrenOnRoot") { run in
                try await run.send(.enumerateAncestors, save: [("RootUrl", "AncestorsWithRootFirst[0].Url")])
                try await run.send(.enumerateChildren(filter: nil), overrideURL: try run.saved("RootUrl"))
            },
            childrenCase("containers.EnumerateChildrenWithOneFilter", filter: ".wopitest"),
            childrenCase("containers.EnumerateChildrenWithMultipleFilters", filter: ".wopitest,.docx,.xlsx"),
            ValidatorCase("containers.EnumerateAncestorsOnRoot") { run in
                try await run.send(.enumerateAncestors, save: [("RootUrl", "AncestorsWithRootFirst[0].Url")])
                try await run.send(.enumerateAncestors, overrideURL: try run.saved("RootUrl"), expect: [.ok])
            },
            ValidatorCase(
                "containers.EnumerateAncestorsOnChildren",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildContainer", on: parent)
                    try await run.send(
                        .createChildContainer(.suggested, name: "CreateChildContainerTest"), overrideURL: parent,
                        save: [("NewFolderUrl", "ContainerPointer.Url")])
                    try await run.send(
                        .enumerateAncestors, overrideURL: try run.saved("NewFolderUrl"),
                        expect: [.json(firstAncestorRules)])
                }, cleanup: deletingContainers("NewFolderUrl")),
        ])

    /// `CreateChildFileAndDeleteFile`: CreateChildFile in both name modes, conflicts, locks, UTF-7, licensing.
    static let createChildFileAndDeleteFile = ValidatorGroup(
        name: "CreateChildFileAndDeleteFile",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.userCanWrite, Prerequisite.containers, Prerequisite.deleteFile,
        ],
        cases: [
            ValidatorCase("CreateChildFileAndDelete") { run in
                let parent = try await run.parentContainer()
                try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                try await run.send(
                    .createChildFile(.suggested, name: "CreateChildFileTestFile.docx"), overrideURL: parent,
                    save: [("NewFileUrl", "Url")])
                try await run.send(.deleteFile, overrideURL: try run.saved("NewFileUrl"))
            },
            ValidatorCase(
                "CreateChildFile.SuggestedName",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                    try await run.send(
                        .createChildFile(.suggested, name: "madeupname.wopitest"), overrideURL: parent,
                        expect: [.json(suggestedRules)], save: [("NewFileUrl", "Url")])
                }, cleanup: deleting("NewFileUrl")),
            ValidatorCase(
                "CreateChildFile.SuggestedNameConflict",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                    let create = WopiOperation.createChildFile(.suggested, name: "madeupname.wopitest")
                    try await run.send(
                        create, overrideURL: parent, expect: [.json(suggestedRules)], save: [("NewUrl1", "Url")])
                    try await run.send(
                        create, overrideURL: parent, expect: [.ok, .json(suggestedRules)], save: [("NewUrl2", "Url")])
                }, cleanup: deleting("NewUrl1", "NewUrl2")),
            exactChild("CreateChildFile.RelativeName", overwrite: nil),
            exactChild("CreateChildFile.RelativeNameOverwriteTrueNoEffect", overwrite: true),
            exactChild("CreateChildFile.RelativeNameOverwriteFalseNoEffect", overwrite: false),
            exactChildConflict("CreateChildFile.RelativeNameConflictNoOverwrite", overwrite: nil),
            exactChildConflict("CreateChildFile.RelativeNameConflictOverwriteFalse", overwrite: false),
            ValidatorCase(
                "CreateChildFile.RelativeNameConflictOverwriteTrue",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                    try await run.send(
                        exactChildFile(nil), overrideURL: parent, expect: [.json(exactChildRules)],
                        save: [("NewUrl1", "Url")])
                    try await run.send(
                        exactChildFile(true), overrideURL: parent,
                        expect: [
                            .json(V.newFileRules(name: .string("Name", required: true, endsWith: ".wopitestfoox")))
                        ],
                        save: [("NewUrl2", "Url")])
                    try await run.send(.checkFileInfo, overrideURL: try run.saved("NewUrl2"), expect: [.ok])
                }, cleanup: deleting("NewUrl1", "NewUrl2")),
            ValidatorCase("CreateChildFile.ConflictingHeaders") { run in
                let parent = try await run.parentContainer()
                try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                try await run.send(
                    .createChildFile(.conflicting, name: "madeupname.wopitestfoox"), overrideURL: parent,
                    expect: [.status([501])])
            },
            ValidatorCase(
                "CreateChildFile.RelativeNameConflictOverwriteTrueLocked",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                    try await run.send(
                        exactChildFile(nil), overrideURL: parent, expect: [.json(exactChildRules)],
                        save: [("NewUrl", "Url")])
                    try await run.send(.lock(V.lockString), overrideURL: try run.saved("NewUrl"))
                    try await run.send(exactChildFile(true), overrideURL: parent, expect: [.status([409])])
                },
                cleanup: { run in
                    await run.cleanup(.unlock(V.lockString), overrideURL: "NewUrl")
                    await run.cleanup(.deleteFile, overrideURL: "NewUrl")
                }),
            ValidatorCase(
                "CreateChildFile.FileNameReturnedIsCorrectlyEncoded",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                    try await run.send(
                        .createChildFile(.exactName(overwrite: nil), name: "madeup_name.wopitestfoox"),
                        overrideURL: parent,
                        expect: [.json([.string("Name", required: true, equals: "madeup_name.wopitestfoox")])],
                        save: [("NewUrl", "Url")])
                }, cleanup: deleting("NewUrl")),
            ValidatorCase(
                "CreateChildFile.FileNameLongerThan512Characters",
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                    try await run.send(
                        .createChildFile(.exactName(overwrite: nil), name: V.longName), overrideURL: parent,
                        expect: [.status([200, 400])], save: [("UrlWithFileNameLongerThan512Chars", "Url")])
                }, cleanup: deleting("UrlWithFileNameLongerThan512Chars")),
            ValidatorCase(
                "CreateChildFile.LicensingPropertiesOnChildFileMatchWithParentFolder", category: .officeNativeClient,
                requests: { run in
                    let parent = try await run.parentContainer()
                    try await run.send(
                        .checkContainerInfo, overrideURL: parent,
                        expect: [
                            .json([
                                .bool("UserCanCreateChildFile", required: true, equals: true),
                                .bool("LicenseCheckForEditIsEnabled", required: true),
                                .bool("IsEduUser", required: true),
                            ])
                        ],
                        save: [
                            ("LicenseCheckForEditIsEnabledParentContainer", "LicenseCheckForEditIsEnabled"),
                            ("IsEduUserParentContainer", "IsEduUser"),
                        ])
                    try await run.send(
                        exactChildFile(nil), overrideURL: parent,
                        expect: [
                            .json([
                                .string("Name", required: true, equals: "madeupname.wopitestfoox"),
                                .absoluteURL("Url", required: true, mustIncludeAccessToken: true),
                            ])
                        ], save: [("NewUrl", "Url")])
                    try await run.send(
                        .checkFileInfo, overrideURL: try run.saved("NewUrl"), expect: [.json(try licensingRules(run))])
                }, cleanup: deleting("NewUrl")),
        ])

    private static let firstAncestorRules: [JSONRule] = [
        .string("AncestorsWithRootFirst[0].Name", required: true),
        .absoluteURL("AncestorsWithRootFirst[0].Url", required: true, mustIncludeAccessToken: true),
    ]

    private static let suggestedRules = V.newFileRules(name: .string("Name", required: true, endsWith: "wopitest"))
    private static let exactChildRules = V.newFileRules(
        name: .string("Name", required: true, equals: "madeupname.wopitestfoox"))

    private static func exactChildFile(_ overwrite: Bool?) -> WopiOperation {
        .createChildFile(.exactName(overwrite: overwrite), name: "madeupname.wopitestfoox")
    }

    /// EnumerateChildren on the parent: the first child file has Name, Url with token, Version and Size.
    private static func childrenCase(_ name: String, filter: String?) -> ValidatorCase {
        ValidatorCase(name) { run in
            let parent = try await run.parentContainer()
            try await run.send(
                .enumerateChildren(filter: filter), overrideURL: parent,
                expect: [
                    .json([
                        .string("ChildFiles[0].Name", required: true),
                        .absoluteURL("ChildFiles[0].Url", required: true, mustIncludeAccessToken: true),
                        .string("ChildFiles[0].Version", required: true), .long("ChildFiles[0].Size", required: true),
                    ])
                ])
        }
    }

    private static func exactChild(_ name: String, overwrite: Bool?) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                let parent = try await run.parentContainer()
                try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                try await run.send(
                    exactChildFile(overwrite), overrideURL: parent, expect: [.json(exactChildRules)],
                    save: [("NewUrl", "Url")])
            }, cleanup: deleting("NewUrl"))
    }

    private static func exactChildConflict(_ name: String, overwrite: Bool?) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                let parent = try await run.parentContainer()
                try await run.requireContainerFlag("UserCanCreateChildFile", on: parent)
                try await run.send(
                    exactChildFile(nil), overrideURL: parent, expect: [.json(exactChildRules)],
                    save: [("NewUrl", "Url")])
                try await run.send(exactChildFile(overwrite), overrideURL: parent, expect: [.status([409])])
            }, cleanup: deleting("NewUrl"))
    }
}
