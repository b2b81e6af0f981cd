private typealias V = ValidatorValues

extension ValidatorGroup {
    /// `RenameFileIfCreateChildFileIsSupported`: files made with CreateChildFile, then renamed.
    static let renameFileIfCreateChildFileIsSupported = ValidatorGroup(
        name: "RenameFileIfCreateChildFileIsSupported",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.locks, Prerequisite.containers,
            Prerequisite.deleteFile, Prerequisite.renameFile, Prerequisite.userCanCreateChildFile,
        ],
        cases: renameCases(prefix: "CreateChildFileAndRenameFile", creator: .createChildFile))

    /// `RenameFileIfCreateChildFileIsNotSupported`: the same with PutRelativeFile, for hosts without containers.
    static let renameFileIfCreateChildFileIsNotSupported = ValidatorGroup(
        name: "RenameFileIfCreateChildFileIsNotSupported",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.locks, Prerequisite.deleteFile,
            Prerequisite.containersUnsupported, Prerequisite.renameFile, Prerequisite.userCanWriteRelative,
        ],
        cases: renameCases(prefix: "PutRelativeAndRenameFile", creator: .putRelativeFile),
        applicability: .optional("the host supports containers; RenameFileIfCreateChildFileIsSupported covers it"))

    /// How a rename case makes the file it renames.
    enum FileCreator: Sendable {
        case putRelativeFile, createChildFile

        /// Creates `name` exactly and saves its URL as `NewFileUrl`.
        func create(_ name: String, in run: CaseRun) async throws {
            switch self {
            case .putRelativeFile:
                try await run.send(
                    .putRelativeFile(.exactName(overwrite: nil), name: name, document: .wordSimpleDocument),
                    expect: [.json([.string("Name", required: true, equals: name)])], save: [("NewFileUrl", "Url")])
            case .createChildFile:
                try await run.send(
                    .enumerateAncestors, save: [("ParentContainerUrl", "AncestorsWithRootFirst[-1:].Url")])
                try await run.send(
                    .createChildFile(.exactName(overwrite: nil), name: name),
                    overrideURL: try run.saved("ParentContainerUrl"),
                    expect: [
                        .json([
                            .string("Name", required: true, equals: name),
                            .absoluteURL("Url", required: true, mustIncludeAccessToken: true),
                        ])
                    ], save: [("NewFileUrl", "Url")])
            }
            try await run.send(
                .checkFileInfo, overrideURL: try run.saved("NewFileUrl"),
                expect: [
                    .ok,
                    .json([
                        .bool("SupportsRename", required: true, equals: true),
                        .bool("UserCanRename", required: true, equals: true),
                    ]),
                ])
        }
    }

    private static func renamed(_ name: String) -> [ResponseRule] {
        [.ok, .json([.string("Name", required: true, equals: name)])]
    }

    private static func renameCases(prefix: String, creator: FileCreator) -> [ValidatorCase] {
        let cleanup: @Sendable (CaseRun) async -> Void = { run in
            await run.cleanup(.unlock(V.lockString), overrideURL: "NewFileUrl")
            await run.cleanup(.deleteFile, overrideURL: "NewFileUrl")
        }
        return [
            ValidatorCase(
                "\(prefix).RenameShouldSucceed",
                requests: { run in
                    try await creator.create("ValidatorTestFile.docx", in: run)
                    let url = try run.saved("NewFileUrl")
                    try await run.send(
                        .renameFile(name: "ValidatorTestFileRenamed", lock: nil), overrideURL: url,
                        expect: renamed("ValidatorTestFileRenamed"))
                    try await run.send(.deleteFile, overrideURL: url)
                }, cleanup: cleanup),
            ValidatorCase(
                "\(prefix).FileNameAfterRenameIsCorrectlyEncoded",
                requests: { run in
                    try await creator.create("madeup_name.wopitestfoox", in: run)
                    let url = try run.saved("NewFileUrl")
                    try await run.send(
                        .renameFile(name: "madeup_renamed", lock: nil), overrideURL: url,
                        expect: renamed("madeup_renamed"))
                    try await run.send(.deleteFile, overrideURL: url)
                }, cleanup: cleanup),
            ValidatorCase(
                "\(prefix).RenamingALockedFileWithACorrectLockHeaderValueShouldSucceed",
                requests: { run in
                    try await creator.create("ValidatorTestFile.docx", in: run)
                    let url = try run.saved("NewFileUrl")
                    try await run.send(.lock(V.lockString), overrideURL: url)
                    try await run.send(
                        .renameFile(name: "ValidatorTestFileRenamed", lock: V.lockString), overrideURL: url,
                        expect: renamed("ValidatorTestFileRenamed"))
                    try await run.send(.unlock(V.lockString), overrideURL: url)
                    try await run.send(.deleteFile, overrideURL: url)
                }, cleanup: cleanup),
            ValidatorCase(
                "\(prefix).RenamingALockedFileWithAnIncorrectLockHeaderValueShouldReturnA409",
                requests: { run in
                    try await creator.create("ValidatorTestFile.docx", in: run)
                    let url = try run.saved("NewFileUrl")
                    try await run.send(.lock(V.lockString), overrideURL: url)
                    try await run.send(
                        .renameFile(name: "ValidatorTestFileRenamed", lock: V.incorrectLockString), overrideURL: url,
                        expect: [.status([409])])
                    try await run.send(.unlock(V.lockString), overrideURL: url)
                    try await run.send(.deleteFile, overrideURL: url)
                }, cleanup: cleanup),
            ValidatorCase(
                "\(prefix).RenamingADeletedFileShouldReturnA404",
                requests: { run in
                    try await creator.create("ValidatorTestFile.docx", in: run)
                    let url = try run.saved("NewFileUrl")
                    try await run.send(.deleteFile, overrideURL: url)
                    try await run.send(
                        .renameFile(name: "ValidatorTestFileRenamed", lock: nil), overrideURL: url,
                        expect: [.status([404])])
                }, cleanup: cleanup),
            ValidatorCase(
                "\(prefix).RenameShouldNotChangeFileExtension",
                requests: { run in
                    try await creator.create("ValidatorTestFile.docx", in: run)
                    let url = try run.saved("NewFileUrl")
                    try await run.send(
                        .renameFile(name: "ValidatorTestFileRenamed", lock: nil), overrideURL: url,
                        expect: renamed("ValidatorTestFileRenamed"))
                    try await run.send(
                        .checkFileInfo, overrideURL: url,
                        expect: [
                            .json([
                                .string("BaseFileName", required: true, equals: "ValidatorTestFileRenamed.docx"),
                                .string("FileExtension", equals: ".docx"),
                            ])
                        ])
                    try await run.send(.deleteFile, overrideURL: url)
                }, cleanup: cleanup),
        ]
    }
}
