extension ValidatorGroup {
    /// `WopiCore` groups that run only when the host advertises an optional feature this example host does
    /// not offer. Their prerequisites are evaluated exactly; should the host start advertising the feature,
    /// the placeholder case fails, so the group gets ported before the host ships the claim.
    static let capabilityGated: [ValidatorGroup] = [
        gated("FileUrlUsage", Prerequisite.fileUrl, feature: "FileUrl"),
        gated("FileUrlViewOnly", Prerequisite.fileUrl, feature: "FileUrl"),
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
}
