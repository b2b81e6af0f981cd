extension ValidatorGroup {
    /// `WopiCore` groups that run only when the host advertises an optional feature this example host does
    /// not offer. Their prerequisites are evaluated exactly; should the host start advertising the feature,
    /// the placeholder case fails, so the group gets ported before the host ships the claim.
    static let capabilityGated: [ValidatorGroup] = [
        gated("FileUrlUsage", Prerequisite.fileUrl, feature: "FileUrl"),
        gated("FileUrlViewOnly", Prerequisite.fileUrl, feature: "FileUrl"),
        gated(
            "GetSharingUrlForFileWithTypeReadOnly", sharePrerequisite("ShareUrlTypeReadOnlyForFilePrereq", "ReadOnly"),
            feature: "SupportedShareUrlTypes"),
        gated(
            "GetSharingUrlForFileWithTypeReadWrite",
            sharePrerequisite("ShareUrlTypeReadWriteForFilePrereq", "ReadWrite"), feature: "SupportedShareUrlTypes"),
        gated(
            "GetSharingUrlForFileWithUnknownType", Prerequisite.supportedShareUrlTypesForFile,
            feature: "SupportedShareUrlTypes"),
        gated(
            "GetSharingUrlForContainerWithTypeReadOnly", Prerequisite.supportedShareUrlTypesForContainer,
            feature: "container SupportedShareUrlTypes"),
        gated(
            "GetSharingUrlForContainerWithTypeReadWrite", Prerequisite.supportedShareUrlTypesForContainer,
            feature: "container SupportedShareUrlTypes"),
        gated(
            "GetSharingUrlForContainerWithUnknownType", Prerequisite.supportedShareUrlTypesForContainer,
            feature: "container SupportedShareUrlTypes"),
        gated("AddActivities", Prerequisite.addActivities, feature: "SupportsAddActivities"),
    ]

    private static func gated(_ name: String, _ prerequisite: ValidatorCase, feature: String) -> ValidatorGroup {
        ValidatorGroup(
            name: name, prerequisites: [Prerequisite.wopiValidator, prerequisite],
            cases: [
                ValidatorCase("\(name) (not ported)") { run in
                    try run.fail("the host advertises \(feature), so the validator runs \(name); port it first")
                }
            ],
            applicability: .optional("the host does not advertise \(feature)"))
    }

    private static func sharePrerequisite(_ name: String, _ type: String) -> ValidatorCase {
        ValidatorCase(name) { run in
            let reply = try await run.send(.checkFileInfo)
            guard case .array(let types)? = reply.json?.select("SupportedShareUrlTypes"),
                types.contains(where: { $0.stringValue?.lowercased() == type.lowercased() })
            else { return try run.fail("SupportedShareUrlTypes does not contain \(type)") }
        }
    }
}
