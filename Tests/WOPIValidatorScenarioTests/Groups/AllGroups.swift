extension ValidatorGroup {
    /// Every ported group, in the order of `TestCases.xml`'s concerns, for a run over one host and one file (the
    /// signed `OfficeOnline` run). Each group filters its cases by the run's categories.
    ///
    /// Not yet here: the capability-gated groups (`capabilityGated`: FileUrl, GetSharingUrl…, AddActivities). The
    /// host advertises `SupportedShareUrlTypes` and `SupportsAddActivities`, so their placeholders fail until those
    /// groups are ported; add them to this list once they are.
    static let all: [ValidatorGroup] = [
        checkFileInfoSchema, baseWopiViewing, locks, getLock, extendedLockLength, editFlows, fileVersion, putUserInfo,
        putRelativeFile, putRelativeFileUnsupported, renameFileIfCreateChildFileIsSupported,
        renameFileIfCreateChildFileIsNotSupported, ecosystem, container, renameContainer,
        enumerateAncestorsAndChildren, createChildFileAndDeleteFile, proofKeys,
    ]
}
