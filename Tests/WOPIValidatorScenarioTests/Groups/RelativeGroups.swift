private typealias V = ValidatorValues

extension ValidatorGroup {
    /// `PutRelativeFile`: suggested and exact names, overwrite, conflicts, locked target, UTF-7, long names
    /// (`IncludeHostUrls` is `OfficeOnline` only).
    static let putRelativeFile = ValidatorGroup(
        name: "PutRelativeFile",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.userCanWriteRelative,
            Prerequisite.locks, Prerequisite.deleteFile,
        ],
        cases: [
            ValidatorCase(
                "PutRelativeFile.SuggestedExtension",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(
                        .putRelativeFile(.suggested, name: ".foox", document: .wordSimpleDocument),
                        expect: [.json(V.newFileRules(name: .string("Name", required: true, endsWith: ".foox")))],
                        save: [("NewFileUrl", "Url")])
                }, cleanup: deleting("NewFileUrl")),
            ValidatorCase(
                "PutRelativeFile.SuggestedName",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    // This case alone does not ask for access_token in Url (the XML puts the flag on Name).
                    try await run.send(
                        .putRelativeFile(.suggested, name: "madeupname.wopitest", document: .wordSimpleDocument),
                        expect: [
                            .json(
                                V.newFileRules(
                                    name: .string("Name", required: true, endsWith: "wopitest"), tokenInURL: false))
                        ],
                        save: [("NewFileUrl", "Url")])
                }, cleanup: deleting("NewFileUrl")),
            ValidatorCase(
                "PutRelativeFile.SuggestedNameConflict",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    let rules = V.newFileRules(name: .string("Name", required: true, endsWith: "wopitest"))
                    let operation = WopiOperation.putRelativeFile(
                        .suggested, name: "madeupname.wopitest", document: .wordSimpleDocument)
                    try await run.send(operation, expect: [.json(rules)], save: [("NewUrl1", "Url")])
                    try await run.send(operation, expect: [.ok, .json(rules)], save: [("NewUrl2", "Url")])
                }, cleanup: deleting("NewUrl1", "NewUrl2")),
            exactName("PutRelativeFile.RelativeName", overwrite: nil),
            exactName("PutRelativeFile.RelativeNameOverwriteTrueNoEffect", overwrite: true),
            exactName("PutRelativeFile.RelativeNameOverwriteFalseNoEffect", overwrite: false),
            exactNameConflict("PutRelativeFile.RelativeNameConflictNoOverwrite", overwrite: nil),
            exactNameConflict("PutRelativeFile.RelativeNameConflictOverwriteFalse", overwrite: false),
            ValidatorCase(
                "PutRelativeFile.RelativeNameConflictOverwriteTrue",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(
                        exact(overwrite: nil), expect: [.json(exactRules)], save: [("NewUrl1", "Url")])
                    try await run.send(
                        exact(overwrite: true),
                        expect: [
                            .json(V.newFileRules(name: .string("Name", required: true, endsWith: ".wopitestfoox")))
                        ],
                        save: [("NewUrl2", "Url")])
                    try await run.send(.checkFileInfo, overrideURL: try run.saved("NewUrl2"), expect: [.ok])
                }, cleanup: deleting("NewUrl1", "NewUrl2")),
            ValidatorCase("PutRelativeFile.ConflictingHeaders") { run in
                try await run.send(.checkFileInfo)
                try await run.send(
                    .putRelativeFile(.conflicting, name: "madeupname.wopitestfoox", document: .wordSimpleDocument),
                    expect: [.status([400, 501])])
            },
            ValidatorCase(
                "PutRelativeFile.RelativeNameConflictOverwriteTrueLocked",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(exact(overwrite: nil), expect: [.json(exactRules)], save: [("NewUrl", "Url")])
                    try await run.send(.lock(V.lockString), overrideURL: try run.saved("NewUrl"))
                    try await run.send(exact(overwrite: true), expect: [.status([409])])
                },
                cleanup: { run in
                    await run.cleanup(.unlock(V.lockString), overrideURL: "NewUrl")
                    await run.cleanup(.deleteFile, overrideURL: "NewUrl")
                }),
            ValidatorCase(
                "PutRelativeFile.FileNameReturnedIsCorrectlyEncoded",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(
                        .putRelativeFile(
                            .exactName(overwrite: nil), name: "madeup_name.wopitestfoox", document: .wordSimpleDocument),
                        expect: [.json([.string("Name", required: true, equals: "madeup_name.wopitestfoox")])],
                        save: [("NewUrl", "Url")])
                }, cleanup: deleting("NewUrl")),
            ValidatorCase(
                "PutRelativeFile.FileNameLongerThan512Chars",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(
                        .putRelativeFile(.exactName(overwrite: nil), name: V.longName, document: .wordSimpleDocument),
                        expect: [.status([200, 400])], save: [("UrlWithFileNameLongerThan512Chars", "Url")])
                }, cleanup: deleting("UrlWithFileNameLongerThan512Chars")),
            OfficeOnlineCases.putRelativeFileIncludeHostUrls,
        ])

    /// `PutRelativeFileUnsupported`: every PutRelativeFile variant answers 501 when `UserCanNotWriteRelative`.
    static let putRelativeFileUnsupported = ValidatorGroup(
        name: "PutRelativeFileUnsupported",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.locks,
            Prerequisite.userCanNotWriteRelative,
        ],
        cases: [
            ("SuggestedExtension", WopiOperation.TargetMode.suggested, ".foox"),
            ("SuggestedName", .suggested, "PutRelativeFileUnsupported_SuggestedName.wopitest"),
            ("RelativeName", .exactName(overwrite: nil), "PutRelativeFileUnsupported_RelativeName.wopitest"),
            (
                "RelativeNameOverwriteTrueNoEffect", .exactName(overwrite: true),
                "PutRelativeFileUnsupported_RelativeNameOverwriteTrueNoEffect.wopitest"
            ),
            (
                "RelativeNameOverwriteFalseNoEffect", .exactName(overwrite: false),
                "PutRelativeFileUnsupported_RelativeNameOverwriteFalseNoEffect.wopitest"
            ),
            ("ConflictingHeaders", .conflicting, "PutRelativeFileUnsupported_ConflictingHeaders.wopitest"),
        ].map { name, mode, target in
            ValidatorCase("PutRelativeFileUnsupported.\(name)") { run in
                try await run.send(.checkFileInfo)
                try await run.send(
                    .putRelativeFile(mode, name: target, document: .wordSimpleDocument), expect: [.status([501])])
            }
        },
        applicability: .optional("the host does not set UserCanNotWriteRelative; PutRelativeFile covers it"))

    private static let exactRules = V.newFileRules(
        name: .string("Name", required: true, equals: "madeupname.wopitestfoox"))

    private static func exact(overwrite: Bool?) -> WopiOperation {
        .putRelativeFile(
            .exactName(overwrite: overwrite), name: "madeupname.wopitestfoox", document: .wordSimpleDocument)
    }

    /// An exact name that does not exist yet: created with that very name, whatever the overwrite flag.
    private static func exactName(_ name: String, overwrite: Bool?) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                try await run.send(.checkFileInfo)
                try await run.send(exact(overwrite: overwrite), expect: [.json(exactRules)], save: [("NewUrl", "Url")])
            }, cleanup: deleting("NewUrl"))
    }

    /// An exact name that exists, without overwrite: 409.
    private static func exactNameConflict(_ name: String, overwrite: Bool?) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                try await run.send(.checkFileInfo)
                try await run.send(exact(overwrite: nil), expect: [.json(exactRules)], save: [("NewUrl", "Url")])
                try await run.send(exact(overwrite: overwrite), expect: [.status([409])])
            }, cleanup: deleting("NewUrl"))
    }

    /// Cleanup requests: DeleteFile on each saved URL.
    static func deleting(_ keys: String...) -> @Sendable (CaseRun) async -> Void {
        { run in
            for key in keys { await run.cleanup(.deleteFile, overrideURL: key) }
        }
    }
}
