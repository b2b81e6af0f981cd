/// The validator's prerequisite cases (`PrereqCases` in `TestCases.xml`), each a CheckFileInfo (or a parent
/// CheckContainerInfo) with one flag rule.
enum Prerequisite {
    /// Every group needs it: the CSPP (or CSPP-Plus) schema and a `BaseFileName` ending in `.wopitest`.
    static let wopiValidator = ValidatorCase("WopiValidatorPrereq") { run in
        try await run.send(
            .checkFileInfo,
            expect: [
                .ok, .checkFileInfoSchema, .json([.string("BaseFileName", required: true, endsWith: ".wopitest")]),
            ])
    }

    static let userCanWrite = flag("UserCanWritePrereq", "UserCanWrite", true)
    static let userCanNotWriteRelative = flag("UserCanNotWriteRelativePrereq", "UserCanNotWriteRelative", true)
    /// `UserCanNotWriteRelative` false or absent.
    static let userCanWriteRelative = flag(
        "UserCanWriteRelativePrereq", "UserCanNotWriteRelative", false, required: false)
    static let containers = flag("ContainersPrereq", "SupportsContainers", true)
    /// `SupportsContainers` false or absent.
    static let containersUnsupported = flag(
        "ContainersUnsupportedPrereq", "SupportsContainers", false, required: false)
    static let ecosystem = flag("EcosystemPrereq", "SupportsEcosystem", true)
    static let locks = flag("LocksPrereq", "SupportsLocks", true)
    static let fileEditing = flag("FileEditingPrereq", "SupportsUpdate", true)
    static let getLock = flag("GetLockPrereq", "SupportsGetLock", true)
    static let extendedLockLength = flag("ExtendedLockLengthPrereq", "SupportsExtendedLockLength", true)
    static let deleteFile = flag("DeleteFilePrereq", "SupportsDeleteFile", true)
    static let renameFile = flag("RenameFilePrereq", "SupportsRename", true)
    static let userInfo = flag("UserInfoPrereq", "SupportsUserInfo", true)
    static let userCanCreateChildFile = parentContainerFlag("UserCanCreateChildFilePrereq", "UserCanCreateChildFile")
    /// RenameContainer's extra prerequisite, evaluated on the test file's parent container (Docs/wopi-protocol.md
    /// §17.3).
    static let userCanRenameContainer = parentContainerFlag("UserCanRenameContainerPrereq", "UserCanRename")

    /// Groups the host may or may not claim: `FileUrl`, share URL types, AddActivities.
    static let fileUrl = ValidatorCase("FileUrlUsagePrereq") { run in
        try await run.send(.checkFileInfo, expect: [.json([.absoluteURL("FileUrl", required: true)])])
    }
    /// `SupportedShareUrlTypes` on the test file: set (`type` nil) or containing `type`.
    static func shareUrlTypesForFile(_ name: String, containing type: String? = nil) -> ValidatorCase {
        ValidatorCase(name) { run in
            try await run.send(
                .checkFileInfo, expect: [.json([.array("SupportedShareUrlTypes", required: true, contains: type)])])
        }
    }
    /// `SupportedShareUrlTypes` on the test file's parent container: set (`type` nil) or containing `type`.
    static func shareUrlTypesForContainer(_ name: String, containing type: String? = nil) -> ValidatorCase {
        ValidatorCase(name) { run in
            try await run.send(
                .checkContainerInfo, overrideURL: try await run.parentContainer(),
                expect: [.json([.array("SupportedShareUrlTypes", required: true, contains: type)])])
        }
    }
    static let addActivities = flag("AddActivitiesPrereq", "SupportsAddActivities", true)

    /// A CheckFileInfo whose `property` must be `expected` (and present, when `required`).
    static func flag(_ name: String, _ property: String, _ expected: Bool, required: Bool = true) -> ValidatorCase {
        ValidatorCase(name) { run in
            try await run.send(.checkFileInfo, expect: [.json([.bool(property, required: required, equals: expected)])])
        }
    }

    /// EnumerateAncestors, then CheckContainerInfo on the last ancestor: `property` must be true.
    static func parentContainerFlag(_ name: String, _ property: String) -> ValidatorCase {
        ValidatorCase(name) { run in
            try await run.send(.enumerateAncestors, save: [("ParentContainerUrl", "AncestorsWithRootFirst[-1:].Url")])
            try await run.send(
                .checkContainerInfo, overrideURL: try run.saved("ParentContainerUrl"),
                expect: [.json([.bool(property, required: true, equals: true)])])
        }
    }
}
