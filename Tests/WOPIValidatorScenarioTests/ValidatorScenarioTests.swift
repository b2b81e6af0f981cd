import Testing

/// A Swift port of the scenarios of Microsoft's WOPI validator (`microsoft/wopi-validator-core`), category
/// `OfficeNativeClient` (= `WopiCore` + `OfficeNativeClient` cases), run against the real example host on
/// both storages. It is an executable specification of what the validator checks, not Microsoft's tool.
///
/// One test per validator group. Each starts `wopi-host serve` on a fresh data directory, imports
/// `WopiValidator/test.wopitest`, mints a token with `wopi-host token`, evaluates the group's prerequisites
/// from CheckFileInfo / CheckContainerInfo flags as the validator does, then runs the group's cases in order.
/// A group whose prerequisites fail is a failure here: the host claims those capabilities.
@Suite("WOPI validator scenarios (port, OfficeNativeClient)", .serialized)
struct ValidatorScenarioTests {
    @Test(arguments: ValidatorTarget.Storage.allCases)
    func checkFileInfoSchema(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.checkFileInfoSchema.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func baseWopiViewing(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.baseWopiViewing.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func locks(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.locks.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func getLock(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.getLock.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func extendedLockLength(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.extendedLockLength.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func editFlows(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.editFlows.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func fileVersion(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.fileVersion.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func putUserInfo(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.putUserInfo.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func putRelativeFile(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.putRelativeFile.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func putRelativeFileUnsupported(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.putRelativeFileUnsupported.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func renameFileIfCreateChildFileIsSupported(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.renameFileIfCreateChildFileIsSupported.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func renameFileIfCreateChildFileIsNotSupported(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.renameFileIfCreateChildFileIsNotSupported.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func ecosystem(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.ecosystem.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func container(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.container.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func renameContainer(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.renameContainer.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func enumerateAncestorsAndChildren(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.enumerateAncestorsAndChildren.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func createChildFileAndDeleteFile(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.createChildFileAndDeleteFile.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func getSharingUrlForFileWithTypeReadOnly(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.getSharingUrlForFileWithTypeReadOnly.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func getSharingUrlForFileWithTypeReadWrite(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.getSharingUrlForFileWithTypeReadWrite.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func getSharingUrlForFileWithUnknownType(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.getSharingUrlForFileWithUnknownType.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func getSharingUrlForContainerWithTypeReadOnly(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.getSharingUrlForContainerWithTypeReadOnly.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func getSharingUrlForContainerWithTypeReadWrite(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.getSharingUrlForContainerWithTypeReadWrite.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func getSharingUrlForContainerWithUnknownType(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.getSharingUrlForContainerWithUnknownType.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func addActivities(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.addActivities.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func fileUrlUsage(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.fileUrlUsage.check(storage: storage)
    }

    @Test(arguments: ValidatorTarget.Storage.allCases)
    func fileUrlViewOnly(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.fileUrlViewOnly.check(storage: storage)
    }
}
