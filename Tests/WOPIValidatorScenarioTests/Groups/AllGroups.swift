extension ValidatorGroup {
    /// Every ported group, in the order of `TestCases.xml`'s concerns, for a run over one host and one file (the
    /// signed `OfficeOnline` run). Each group filters its cases by the run's categories.
    /// The FileUrl placeholders (`capabilityGated`) are in it too: not applicable while the host does not advertise
    /// `FileUrl`.
    static let all: [ValidatorGroup] =
        [
            checkFileInfoSchema, baseWopiViewing, locks, getLock, extendedLockLength, editFlows, fileVersion,
            putUserInfo,
            putRelativeFile, putRelativeFileUnsupported, renameFileIfCreateChildFileIsSupported,
            renameFileIfCreateChildFileIsNotSupported, ecosystem, container, renameContainer,
            enumerateAncestorsAndChildren, createChildFileAndDeleteFile, getSharingUrlForFileWithTypeReadOnly,
            getSharingUrlForFileWithTypeReadWrite, getSharingUrlForFileWithUnknownType,
            getSharingUrlForContainerWithTypeReadOnly, getSharingUrlForContainerWithTypeReadWrite,
            getSharingUrlForContainerWithUnknownType, addActivities, proofKeys,
        ] + capabilityGated
}
