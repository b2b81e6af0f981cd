extension ValidatorGroup {
    /// `CheckFileInfoSchema`: the CSPP schema, the invalid-token answer and (`OfficeOnline` only) `HostUrls`.
    static let checkFileInfoSchema = ValidatorGroup(
        name: "CheckFileInfoSchema", prerequisites: [Prerequisite.wopiValidator],
        cases: [
            ValidatorCase("FullCheckFileInfoSchema") { run in
                // Beyond the schema: BaseFileName must not start with "." (Docs/wopi-protocol.md §17.3) and no JSON
                // nulls (Docs/wopi-protocol.md §2.5, which this port adds on purpose).
                let reply = try await run.send(.checkFileInfo, expect: [.ok, .checkFileInfoSchema, .noJSONNulls])
                if reply.json?.select("BaseFileName")?.stringValue?.hasPrefix(".") == true {
                    return try run.fail("BaseFileName starts with '.'")
                }
            },
            ValidatorCase("CheckFileWithInvalidAccessToken") { run in
                try await run.send(.checkFileInfo, token: ValidatorValues.invalidToken, expect: [.invalidToken])
            },
            OfficeOnlineCases.hostUrls,
        ])

    /// `BaseWopiViewing`: what a viewer needs.
    static let baseWopiViewing = ValidatorGroup(
        name: "BaseWopiViewing", prerequisites: [Prerequisite.wopiValidator],
        cases: [
            ValidatorCase("CheckFileInfoFieldsNotToBeSetByHosts") { run in
                try await run.send(
                    .checkFileInfo,
                    expect: [
                        .json(
                            [.string("UserId", required: true)]
                                + [
                                    "HostAuthenticationId", "PresenceUserId", "TenantId", "UserPrincipalName",
                                    "AADUserObjectId",
                                ].map { .string($0, equals: "") }
                                + [.string("FileExtension", equals: ".wopitest")])
                    ])
            },
            ValidatorCase("ViewOnlySupport") { run in
                try await run.send(
                    .checkFileInfo,
                    expect: [.json(ValidatorValues.basicCheckFileInfoRules + ValidatorValues.viewingURLRules)])
                try await run.send(.getFile(lock: nil))
            },
            ValidatorCase("GetUnlockedFile") { run in
                try await run.send(.getFile(lock: nil))
            },
        ])
}
