extension ValidatorGroup {
    /// Every ported group, in the order of `TestCases.xml`'s concerns, for a run over one host and one file (the
    /// signed `OfficeOnline` run). Each group filters its cases by the run's categories.
    static let all: [ValidatorGroup] =
        [
            checkFileInfoSchema, baseWopiViewing, locks, getLock, extendedLockLength, editFlows, fileVersion,
            putUserInfo,
            putRelativeFile, putRelativeFileUnsupported, renameFileIfCreateChildFileIsSupported,
            renameFileIfCreateChildFileIsNotSupported, ecosystem, container, renameContainer,
            enumerateAncestorsAndChildren, createChildFileAndDeleteFile, getSharingUrlForFileWithTypeReadOnly,
            getSharingUrlForFileWithTypeReadWrite, getSharingUrlForFileWithUnknownType,
            getSharingUrlForContainerWithTypeReadOnly, getSharingUrlForContainerWithTypeReadWrite,
            getSharingUrlForContainerWithUnknownType, fileUrlUsage, fileUrlViewOnly, addActivities, proofKeys,
        ]
}
