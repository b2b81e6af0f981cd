/// The `WopiCoauth` category's coauth-lock groups (facts from `TestCases.xml`): CoauthLocks, CoauthLockExpiration
/// and RenameFileWithCoauthLockSupported, for a host that advertises CSPP Plus co-authoring.
extension ValidatorGroup {
    static let coauthLocks = ValidatorGroup(
        name: "CoauthLocks", prerequisites: [Prerequisite.wopiValidator, Prerequisite.supportsCoauth],
        cases: (CoauthCases.tables + CoauthCases.types + CoauthCases.refusals + CoauthCases.metadata).map {
            $0.inCategory(.wopiCoauth)
        })

    /// The delayed group: its `Delay`s advance the test's clock (``CaseRun/delay``) instead of sleeping.
    static let coauthLockExpiration = ValidatorGroup(
        name: "CoauthLockExpiration", prerequisites: [Prerequisite.wopiValidator, Prerequisite.supportsCoauth],
        cases: CoauthCases.expiration.map { $0.inCategory(.wopiCoauth) })

    /// All eight cases; the first (`RenameFile.ClientPresentsCoauthLockWithHostCoauthLock.Success`) writes the file
    /// with PutChunkedFile (``TransferCases/renameKeepsContent``).
    static let renameFileWithCoauthLock = ValidatorGroup(
        name: "RenameFileWithCoauthLockSupported",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.locks, Prerequisite.renameFile,
            Prerequisite.supportsCoauth,
        ],
        cases: ([TransferCases.renameKeepsContent] + CoauthCases.rename).map { $0.inCategory(.wopiCoauth) })
}

extension Prerequisite {
    /// `SupportsCoauthPrereq`: the CSPP Plus CheckFileInfo properties.
    static let supportsCoauth = ValidatorCase("SupportsCoauthPrereq") { run in
        try await run.send(
            .checkFileInfo,
            expect: [
                .json([
                    .bool("SupportsCoauth", required: true, equals: true), .long("AccessTokenExpiry", required: true),
                    .absoluteURL("RealTimeChannelEndpointUrl", required: true),
                    .absoluteURL("OfficeCollaborationServiceEndpointUrl", required: true),
                    .integer("SequenceNumber", required: true), .long("ServerTime", required: true),
                    .bool("SupportsLocks", required: true, equals: true),
                    .bool("SupportsUpdate", required: true, equals: true),
                    .bool("SupportsUserInfo", required: true, equals: true),
                ]),
                .anyOf([
                    .json([.string("SharingStatus", required: true, equals: "Private")]),
                    .json([.string("SharingStatus", required: true, equals: "Shared")]),
                ]),
            ])
    }
}

private enum CoauthCases {
    static let version = ResponseRule.header("X-WOPI-CoauthTableVersion")

    static func get(
        _ id: String?, _ metadata: String?, _ type: String? = "Coauth", timeout: Int? = 120, body: String? = nil
    ) -> WopiOperation {
        .getCoauthLock(id: id, type: type, timeout: timeout, metadata: metadata, metadataAsBody: body)
    }

    static func refresh(_ id: String?, _ metadata: String?, timeout: Int? = 120, body: String? = nil) -> WopiOperation {
        .refreshCoauthLock(id: id, timeout: timeout, metadata: metadata, metadataAsBody: body)
    }

    static func unlocking(_ ids: String...) -> @Sendable (CaseRun) async -> Void {
        { run in for id in ids { await run.cleanup(.unlockCoauthLock(id: id)) } }
    }

    /// `ResponseHeaderValidator` on the table version against saved state: equal (`matches`) or different.
    static func versionVersus(_ run: CaseRun, _ key: String, matches: Bool) throws -> ResponseRule {
        .header("X-WOPI-CoauthTableVersion", expected: try run.saved(key), shouldMatch: matches)
    }

    static let saveVersion = [("Version", "header:X-WOPI-CoauthTableVersion")]

    // MARK: The table and its version

    static let tables: [ValidatorCase] = [
        ValidatorCase(
            "CoauthLock.SingleLockInCoauthTable",
            requests: { run in
                try await run.send(get("Client1", "SingleLockInCoauthTable"), expect: [.ok, version])
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [.ok, version, .coauthTable(["Client1|Coauth|SingleLockInCoauthTable"])])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.SingleLockInCoauthTable.GetCoauthTableWithSameVersionAsHost",
            requests: { run in
                try await run.send(
                    get("Client1", "SingleLockInCoauthTable"), expect: [.ok, version], save: saveVersion)
                try await run.send(
                    .getCoauthTable(version: try run.saved("Version")),
                    expect: [.ok, version, .noBody, try versionVersus(run, "Version", matches: true)])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.CoauthLockRequestOnSameCoauthLockExpirationRefresh",
            requests: { run in
                try await run.send(get("Client1", "CoauthLockRequestOnSameCoauthLock"), expect: [.ok, version])
                try await run.send(
                    get("Client1", "CoauthLockRequestOnSameCoauthLock"),
                    expect: [.ok, version, .coauthTable(["Client1|Coauth|CoauthLockRequestOnSameCoauthLock"])])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.UnlockCoauthLockValidation",
            requests: { run in
                try await run.send(get("Client1", "UnlockCoauthLockValidation"), expect: [.ok, version])
                try await run.send(.unlockCoauthLock(id: "Client1"))
                try await run.send(.getCoauthTable(version: nil), expect: [.ok, version, .coauthTable([])])
            }),
        ValidatorCase(
            "CoauthLock.MultipleLocksInCoauthTable",
            requests: { run in
                try await run.send(
                    get("Client1", "MultipleLocksInCoauthTable1"), expect: [.ok, version], save: saveVersion)
                try await run.send(
                    get("Client2", "MultipleLocksInCoauthTable2"),
                    expect: [.ok, try versionVersus(run, "Version", matches: false)])
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [
                        .ok, version,
                        .coauthTable([
                            "Client1|Coauth|MultipleLocksInCoauthTable1", "Client2|Coauth|MultipleLocksInCoauthTable2",
                        ]),
                    ])
            }, cleanup: unlocking("Client1", "Client2")),
        twoLocksThenTable(
            "CoauthLock.MultipleLocksInCoauthTable.GetCoauthTableWithDifferentVersionFromHost",
            "MultipleLocksInCoauthTable", secondType: "Coauth", askWith: "Version1", noBody: false),
        twoLocksThenTable(
            "CoauthLock.MultipleLocksInCoauthTable.GetCoauthTableWithSameVersionAsHost",
            "MultipleLocksInCoauthTable", secondType: "Coauth", askWith: "Version2", noBody: true),
        ValidatorCase(
            "CoauthLock.UnlockCoauthLockWithMultipleLocksInCoauthTable",
            requests: { run in
                let name = "UnlockCoauthLockWithMultipleLocksInCoauthTable"
                try await run.send(get("Client1", name + "1"), expect: [.ok, version], save: saveVersion)
                try await run.send(
                    get("Client2", name + "2"), expect: [.ok, try versionVersus(run, "Version", matches: false)])
                try await run.send(.unlockCoauthLock(id: "Client1"))
                try await run.send(
                    .getCoauthTable(version: nil), expect: [.ok, version, .coauthTable(["Client2|Coauth|\(name)2"])])
            }, cleanup: unlocking("Client1", "Client2")),
        ValidatorCase(
            "CoauthLock.MultipleTypesOfLocksInCoauthTable",
            requests: { run in
                let name = "MultipleTypesOfLocksInCoauthTable"
                try await run.send(get("Client1", name + "1"), expect: [.ok, version], save: saveVersion)
                try await run.send(
                    get("Client2", name + "2", "CoauthExclusive"),
                    expect: [.ok, try versionVersus(run, "Version", matches: false)])
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [
                        .ok, version, .coauthTable(["Client2|CoauthExclusive|\(name)2", "Client1|Coauth|\(name)1"]),
                    ])
            }, cleanup: unlocking("Client1", "Client2")),
        twoLocksThenTable(
            "CoauthLock.MultipleTypesOfLocksInCoauthTable.GetCoauthTableWithSameVersionAsHost",
            "MultipleTypesOfLocksInCoauthTable", secondType: "CoauthExclusive", askWith: "Version2", noBody: true),
        ValidatorCase(
            "CoauthLock.GetCoauthTableWithoutLocks",
            requests: { run in
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [
                        .ok, .header("X-WOPI-CoauthTableVersion", expected: "", shouldMatch: false), .coauthTable([]),
                    ])
            }),
    ]

    /// Two locks (saving both versions), then GetCoauthTable with one of them: the table, or no body.
    static func twoLocksThenTable(
        _ name: String, _ metadata: String, secondType: String, askWith key: String, noBody: Bool
    ) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                try await run.send(
                    get("Client1", metadata + "1"), expect: [.ok, version],
                    save: [("Version1", "header:X-WOPI-CoauthTableVersion")])
                try await run.send(
                    get("Client2", metadata + "2", secondType),
                    expect: [.ok, try versionVersus(run, "Version1", matches: false)],
                    save: [("Version2", "header:X-WOPI-CoauthTableVersion")])
                let table: ResponseRule =
                    noBody
                    ? .noBody : .coauthTable(["Client1|Coauth|\(metadata)1", "Client2|\(secondType)|\(metadata)2"])
                try await run.send(
                    .getCoauthTable(version: try run.saved(key)),
                    expect: [.ok, version, table, try versionVersus(run, "Version2", matches: true)])
            }, cleanup: unlocking("Client1", "Client2"))
    }

    // MARK: Types

    static let types: [ValidatorCase] = [
        ValidatorCase(
            "CoauthLock.CoauthExclusiveLockRequestOnExistingCoauthLock",
            requests: { run in
                let name = "CoauthExclusiveLockRequestOnExistingCoauthLock"
                try await run.send(get("Client1", name), expect: [.ok, version], save: saveVersion)
                try await run.send(
                    get("Client1", name, "CoauthExclusive"),
                    expect: [.ok, try versionVersus(run, "Version", matches: false)])
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [.ok, version, .coauthTable(["Client1|CoauthExclusive|\(name)"])])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.CoauthLockRequestOnExistingCoauthExclusiveLockOfSameCoauthLockId",
            requests: { run in
                let name = "CoauthLockRequestOnExistingCoauthExclusiveLockOfSameCoauthLockId"
                try await run.send(get("Client1", name, "CoauthExclusive"), expect: [.ok, version], save: saveVersion)
                try await run.send(
                    get("Client1", name), expect: [.ok, try versionVersus(run, "Version", matches: false)])
                try await run.send(
                    .getCoauthTable(version: nil), expect: [.ok, version, .coauthTable(["Client1|Coauth|\(name)"])])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.CoauthLockRequestOnExistingCoauthExclusiveLockOfDifferentCoauthLockId",
            requests: { run in
                let name = "CoauthLockRequestOnExistingCoauthExclusiveLockOfDifferentCoauthLockId"
                try await run.send(
                    get("Client1", name + "1", "CoauthExclusive"), expect: [.ok, version], save: saveVersion)
                try await run.send(
                    get("Client2", name + "2"), expect: [.ok, try versionVersus(run, "Version", matches: false)])
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [
                        .ok, version, .coauthTable(["Client1|CoauthExclusive|\(name)1", "Client2|Coauth|\(name)2"]),
                    ])
            }, cleanup: unlocking("Client1", "Client2")),
        ValidatorCase(
            "CoauthLock.CoauthExclusiveLockRequestOnExistingCoauthExclusiveLock",
            requests: { run in
                let name = "CoauthExclusiveLockRequestOnExistingCoauthExclusiveLock"
                try await run.send(get("Client1", name + "1", "CoauthExclusive"), expect: [.ok, version])
                try await run.send(get("Client2", name + "2", "CoauthExclusive"), expect: [.status([409])])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.CoauthLockTypeSwitchingOnExistingCoauthExclusiveLock",
            requests: { run in
                let name = "CoauthLockTypeSwitchingOnExistingCoauthExclusiveLock"
                try await run.send(get("Client1", name + "1"), expect: [.ok, version])
                try await run.send(get("Client2", name + "2", "CoauthExclusive"), expect: [.ok, version])
                try await run.send(get("Client1", name + "1", "CoauthExclusive"), expect: [.status([409])])
            }, cleanup: unlocking("Client1", "Client2")),
        ValidatorCase(
            "CoauthLock.CoauthLockRequestOnExistingWopiLockWithLockUserVisibleTrue",
            requests: { run in
                try await run.send(.lockUserVisible("Client1", visible: true))
                try await run.send(
                    get("Client1", "CoauthLockRequestOnExistingWopiLockWithLockUserVisibleTrue"),
                    expect: [.status([409]), .header("X-WOPI-ConflictingLockUsername")])
            }, cleanup: { run in await run.cleanup(.unlock("Client1")) }),
    ]

    // MARK: Refusals

    /// A 1025-character ID, one more than the 1024 allowed, as the validator's.
    static let longID = String(repeating: "I1Iewhc0FU", count: 102) + "hHUVl"

    static func refused(_ name: String, _ operation: WopiOperation, status: Int = 400) -> ValidatorCase {
        ValidatorCase(name) { run in try await run.send(operation, expect: [.status([status])]) }
    }

    static let refusals: [ValidatorCase] = [
        refused(
            "CoauthLock.GetCoauthLockWithoutCoauthLockType", get("Client1", "GetCoauthLockWithoutCoauthLockType", nil)),
        refused("CoauthLock.GetCoauthLockWithoutCoauthLockId", get(nil, "GetCoauthLockWithoutCoauthLockId")),
        refused(
            "CoauthLock.GetCoauthLockWithoutCoauthLockExpirationTimeout",
            get("Client1", "GetCoauthLockWithoutCoauthLockExpirationTimeout", timeout: nil)),
        refused("CoauthLock.UnlockCoauthLockWithoutCoauthLockId", .unlockCoauthLock(id: nil)),
        refused(
            "CoauthLock.RefreshCoauthLockWithoutCoauthLockId", refresh(nil, "RefreshCoauthLockWithoutCoauthLockId")),
        refused(
            "CoauthLock.RefreshCoauthLockWithoutCoauthLockExpirationTimeout",
            refresh("Client1", "RefreshCoauthLockWithoutCoauthLockExpirationTimeout", timeout: nil)),
        refused("CoauthLock.InvalidCoauthLockType", get("Client1", "CoauthLockTypeValidation", "None")),
        refused("CoauthLock.EmptyCoauthLockType", get("Client1", "EmptyCoauthLockType", "")),
        refused("CoauthLock.CoauthLockIdLengthValidationForGetCoauthLock", get(longID, "CoauthLockIdLengthValidation")),
        refused("CoauthLock.CoauthLockIdLengthValidationForUnlockCoauthLock", .unlockCoauthLock(id: longID)),
        refused(
            "CoauthLock.CoauthLockIdLengthValidationForRefreshCoauthLock",
            refresh(longID, "CoauthLockIdLengthValidation")),
        ValidatorCase("CoauthLock.InvalidGetCoauthLockExpirationTimeout") { run in
            try await run.send(
                get("Client1", "InvalidGetCoauthLockExpirationTimeout1", timeout: 59), expect: [.status([400])])
            try await run.send(
                get("Client2", "InvalidGetCoauthLockExpirationTimeout2", timeout: 3601), expect: [.status([400])])
        },
        ValidatorCase(
            "CoauthLock.InvalidRefreshCoauthLockExpirationTimeout",
            requests: { run in
                let name = "InvalidRefreshCoauthLockExpirationTimeout"
                try await run.send(get("Client1", name, timeout: 60), expect: [.ok, version])
                try await run.send(refresh("Client1", name, timeout: 59), expect: [.status([400])])
                try await run.send(refresh("Client1", name, timeout: 3601), expect: [.status([400])])
            }, cleanup: unlocking("Client1")),
        refused("CoauthLock.UnlockCoauthLockWithNoLocks", .unlockCoauthLock(id: "Client1"), status: 409),
        refused(
            "CoauthLock.RefreshCoauthLockWithNoLocks", refresh("Client1", "RefreshCoauthLockWithNoLocks"), status: 409),
    ]

    // MARK: Metadata

    static func metadataCase(
        _ name: String, take: WopiOperation, refresh refreshing: WopiOperation? = nil, table: [String],
        refreshKeepsVersion: Bool? = nil
    ) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                try await run.send(take, expect: [.ok, version], save: saveVersion)
                if let refreshing {
                    var rules: [ResponseRule] = [.ok, version]
                    if let keeps = refreshKeepsVersion {
                        rules += [try versionVersus(run, "Version", matches: keeps), .coauthTable(table)]
                    }
                    try await run.send(refreshing, expect: rules)
                }
                if refreshKeepsVersion == nil {
                    try await run.send(.getCoauthTable(version: nil), expect: [.ok, version, .coauthTable(table)])
                }
            }, cleanup: unlocking("Client1"))
    }

    static let metadata: [ValidatorCase] = [
        ValidatorCase(
            "CoauthLock.CoauthLockMetadataValidation",
            requests: { run in
                try await run.send(
                    get("Client1", "CoauthMetadataValidation"),
                    expect: [.ok, version, .coauthTable(["Client1|Coauth|CoauthMetadataValidation"])])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.EmptyCoauthLockMetadata",
            requests: { run in
                try await run.send(get("Client1", ""), expect: [.ok, version, .coauthTable(["Client1|Coauth|"])])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.OmittedCoauthLockMetadata",
            requests: { run in
                try await run.send(get("Client1", nil), expect: [.ok, version, .coauthTable(["Client1|Coauth|"])])
            }, cleanup: unlocking("Client1")),
        metadataCase(
            "CoauthLock.RefreshCoauthLockWithMetadata", take: get("Client1", "RefreshCoauthLockWithMetadata1"),
            refresh: refresh("Client1", "RefreshCoauthLockWithMetadata2"),
            table: ["Client1|Coauth|RefreshCoauthLockWithMetadata2"], refreshKeepsVersion: false),
        metadataCase(
            "CoauthLock.RefreshCoauthLockWithoutMetadata", take: get("Client1", "RefreshCoauthLockWithoutMetadata"),
            refresh: refresh("Client1", nil), table: ["Client1|Coauth|RefreshCoauthLockWithoutMetadata"],
            refreshKeepsVersion: true),
        metadataCase(
            "CoauthLock.CoauthLockMetadataLengthValidationForGetCoauthLock", take: get("Client1", "BIG FILE HERE"),
            table: ["Client1|Coauth|BIG FILE HERE"]),
        metadataCase(
            "CoauthLock.CoauthLockMetadataLengthValidationForRefreshCoauthLock",
            take: get("Client1", "CoauthLockMetadataLengthValidationForRefreshCoauthLock"),
            refresh: refresh("Client1", "BIG FILE HERE"), table: ["Client1|Coauth|BIG FILE HERE"]),
        metadataCase(
            "CoauthLock.CoauthLockMetadataSentAsBody", take: get("Client1", nil, body: "CoauthLockMetadataAsBody"),
            table: ["Client1|Coauth|CoauthLockMetadataAsBody"]),
        metadataCase(
            "CoauthLock.CoauthLockMetadataSentAsBodyForRefreshCoauthLock",
            take: get("Client1", nil, body: "CoauthLockMetadataAsBody"),
            refresh: refresh("Client1", nil, body: "CoauthLockMetadataAsBody2"),
            table: ["Client1|Coauth|CoauthLockMetadataAsBody2"]),
        metadataCase(
            "CoauthLock.CoauthLockMetadataSentAsBodyAndHeader",
            take: get("Client1", "CoauthLockMetadata", body: "CoauthLockMetadataAsBody"),
            table: ["Client1|Coauth|CoauthLockMetadataAsBody"]),
        metadataCase(
            "CoauthLock.CoauthLockMetadataSentAsBodyAndHeaderForRefreshCoauthLock",
            take: get("Client1", "CoauthLockMetadata", body: "CoauthLockMetadataAsBody"),
            refresh: refresh("Client1", "CoauthLockMetadata2", body: "CoauthLockMetadataAsBody2"),
            table: ["Client1|Coauth|CoauthLockMetadataAsBody2"]),
        ValidatorCase(
            "CoauthLock.CoauthLockMetadataSentAsBodyAndHeaderForMultipleLocks",
            requests: { run in
                try await run.send(
                    get("Client1", "CoauthLockMetadata", body: "CoauthLockMetadataAsBody"), expect: [.ok, version])
                try await run.send(
                    refresh("Client1", "CoauthLockMetadata2", body: "CoauthLockMetadataAsBodyClient1"),
                    expect: [.ok, version])
                try await run.send(
                    get("Client2", nil, body: "CoauthLockMetadataAsBodyClient2"), expect: [.ok, version])
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [
                        .ok, version,
                        .coauthTable([
                            "Client1|Coauth|CoauthLockMetadataAsBodyClient1",
                            "Client2|Coauth|CoauthLockMetadataAsBodyClient2",
                        ]),
                    ])
            }, cleanup: unlocking("Client1", "Client2")),
        metadataCase(
            "CoauthLock.CoauthLockMetadataSentAsBodyAndHeaderSetToEmpty",
            take: get("Client1", "CoauthLockMetadata", body: ""), table: ["Client1|Coauth|"]),
        metadataCase(
            "CoauthLock.CoauthLockMetadataSentAsBodySetToEmpty", take: get("Client1", nil, body: ""),
            table: ["Client1|Coauth|"]),
        metadataCase(
            "CoauthLock.CoauthLockMetadataSentAsBodySetToEmptyRefreshCoauthLock",
            take: get("Client1", nil, body: "CoauthLockMetadataAsBody"), refresh: refresh("Client1", nil, body: ""),
            table: ["Client1|Coauth|CoauthLockMetadataAsBody"]),
    ]

    // MARK: CoauthLockExpiration (HasDelay)

    static let expiration: [ValidatorCase] = [
        ValidatorCase(
            "CoauthLock.GetCoauthTableAfterLockExpiration",
            requests: { run in
                try await run.send(
                    get("Client1", "GetCoauthTableAfterLockExpiration1", timeout: 60), expect: [.ok, version])
                try await run.delay(seconds: 60)
                try await run.send(get("Client2", "GetCoauthTableAfterLockExpiration2"), expect: [.ok, version])
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [.ok, version, .coauthTable(["Client2|Coauth|GetCoauthTableAfterLockExpiration2"])])
            }, cleanup: unlocking("Client2")),
        ValidatorCase(
            "CoauthLock.RefreshCoauthLockValidation",
            requests: { run in
                try await run.send(get("Client1", "RefreshCoauthLockValidation", timeout: 60), expect: [.ok, version])
                try await run.delay(seconds: 30)
                try await run.send(
                    refresh("Client1", "RefreshCoauthLockValidation", timeout: 240), expect: [.ok, version])
                try await run.delay(seconds: 30)
                try await run.send(
                    .getCoauthTable(version: nil),
                    expect: [.ok, version, .coauthTable(["Client1|Coauth|RefreshCoauthLockValidation"])])
            }, cleanup: unlocking("Client1")),
        ValidatorCase(
            "CoauthLock.CoauthLockExpirationTimeoutValidation",
            requests: { run in
                try await run.send(
                    get("Client1", "CoauthLockExpirationTimeoutValidation", timeout: 60), expect: [.ok, version])
                try await run.delay(seconds: 60)
                try await run.send(.getCoauthTable(version: nil), expect: [.ok, version, .coauthTable([])])
            }),
        ValidatorCase(
            "CoauthLock.UnlockCoauthLockOnExpiredCoauthLock",
            requests: { run in
                try await run.send(
                    get("Client1", "UnlockCoauthLockOnExpiredCoauthLock", timeout: 60), expect: [.ok, version])
                try await run.delay(seconds: 60)
                try await run.send(.unlockCoauthLock(id: "Client1"), expect: [.status([409])])
            }),
        ValidatorCase(
            "CoauthLock.RefreshCoauthLockOnExpiredCoauthLock",
            requests: { run in
                try await run.send(
                    get("Client1", "RefreshCoauthLockOnExpiredCoauthLock", timeout: 60), expect: [.ok, version])
                try await run.delay(seconds: 60)
                try await run.send(refresh("Client1", "RefreshCoauthLockOnExpiredCoauthLock"), expect: [.status([409])])
            }),
    ]

    // MARK: RenameFileWithCoauthLockSupported

    static func rename(_ name: String, lock: String? = nil, coauth: String?) -> WopiOperation {
        .renameFileCoauth(name: name, lock: lock, coauthLockID: coauth)
    }

    static let client1 = get("Client_1_CoauthLock", "Client_1_CoauthLock", timeout: 600)

    static func renamed(_ name: String, _ operation: WopiOperation) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                try await run.send(
                    operation, expect: [.ok, .json([.string("Name", required: true, equals: operation.requestedName)])])
                try await run.send(
                    .checkFileInfo,
                    expect: [
                        .json([.string("BaseFileName", required: true, equals: operation.requestedName + ".wopitest")])
                    ])
            }, cleanup: { run in await run.cleanup(.renameFileCoauth(name: "test", lock: nil, coauthLockID: nil)) })
    }

    static func renameConflict(_ name: String, setUp: WopiOperation, _ operation: WopiOperation, release: WopiOperation)
        -> ValidatorCase
    {
        ValidatorCase(
            name,
            requests: { run in
                try await run.send(setUp)
                try await run.send(operation, expect: [.status([409])])
            }, cleanup: { run in await run.cleanup(release) })
    }

    static let rename: [ValidatorCase] = [
        renamed(
            "RenameFile.ClientPresentsCoauthLockWithHostNoLock.Success",
            rename("RenameFile_ClientPresentsCoauthLockWithHostNoLock", coauth: "Client_1_CoauthLock")),
        renamed(
            "RenameFile.ClientPresentsNoLockWithHostNoLock.Success",
            rename("RenameFile_ClientPresentsNoLockWithHostNoLock", coauth: nil)),
        renameConflict(
            "RenameFile.ClientPresentsNoLockWithHostCoauthLock.FailWithConflict409", setUp: client1,
            rename("ValidatorTestFileRenamed", coauth: nil), release: .unlockCoauthLock(id: "Client_1_CoauthLock")),
        renameConflict(
            "RenameFile.ClientPresentsWopiLockWithHostCoauthLock.FailWithConflict409", setUp: client1,
            rename("ValidatorTestFileRenamed", lock: "WrongLock", coauth: nil),
            release: .unlockCoauthLock(id: "Client_1_CoauthLock")),
        renameConflict(
            "RenameFile.ClientPresentsWrongCoauthLockWithHostCoauthLock.FailWithConflict409", setUp: client1,
            rename("ValidatorTestFileRenamed", coauth: "WrongLockId"),
            release: .unlockCoauthLock(id: "Client_1_CoauthLock")),
        renameConflict(
            "RenameFile.ClientPresentsCoauthLockWithHostWopiLock.FailWithConflict409", setUp: .lock("WopiLock"),
            rename("ValidatorTestFileRenamed", coauth: "WrongLockId"), release: .unlock("WopiLock")),
        ValidatorCase("RenameFile.ClientCoauthLockAndWopiLockSetTogether.FailWithBadRequest400") { run in
            try await run.send(
                rename("ValidatorTestFileRenamed", lock: "WopiLock", coauth: "CoauthLockId"), expect: [.status([400])])
        },
    ]
}

extension WopiOperation {
    /// A rename's requested name (`""` for other requests).
    fileprivate var requestedName: String {
        if case .renameFileCoauth(let name, _, _) = self { return name }
        return ""
    }
}
