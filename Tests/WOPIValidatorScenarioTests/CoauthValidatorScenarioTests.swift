import Testing
import WOPIModels

/// The `WopiCoauth` category's coauth-lock groups of Microsoft's validator (our port: CoauthLocks,
/// CoauthLockExpiration, RenameFileWithCoauthLockSupported), over real HTTP on SQLite, against a host configured
/// for co-authoring. The expiration group's delays move the host's test clock; nothing sleeps.
@Suite("WOPI validator scenarios (port, WopiCoauth coauth locks)", .serialized)
struct CoauthValidatorScenarioTests {
    @Test func coauthLocks() async throws {
        try await ValidatorTarget.withCoauthHost { target in
            await ValidatorGroup.check([.coauthLocks], on: target, label: "sqlite, coauth")
        }
    }

    @Test func coauthLockExpiration() async throws {
        try await ValidatorTarget.withCoauthHost { target in
            await ValidatorGroup.check([.coauthLockExpiration], on: target, label: "sqlite, coauth, test clock")
        }
    }

    @Test func renameFileWithCoauthLockSupported() async throws {
        try await ValidatorTarget.withCoauthHost { target in
            await ValidatorGroup.check([.renameFileWithCoauthLock], on: target, label: "sqlite, coauth")
        }
    }

    @Test func incrementalFileTransfer() async throws {
        try await ValidatorTarget.withCoauthHost { target in
            await ValidatorGroup.check(
                [
                    .incrementalFileTransferErrorCases, .incrementalFileTransferWithFullFile,
                    .incrementalFileTransferWithZip,
                ],
                on: target, label: "sqlite, coauth")
        }
    }

    /// The whole `WopiCoauth` category on one host and one file, in `TestCases.xml`'s order: 0 failures.
    @Test func theWholeCoauthCategory() async throws {
        try await ValidatorTarget.withCoauthHost { target in
            await ValidatorGroup.check(ValidatorGroup.coauthCategory, on: target, label: "sqlite, coauth, test clock")
        }
    }

    /// Co-authoring changes nothing for CSPP clients: the lock, edit and rename groups pass on the same host.
    @Test func theCSPPGroupsStillPassWithCoauthoringOn() async throws {
        try await ValidatorTarget.withCoauthHost { target in
            await ValidatorGroup.check(
                [.locks, .getLock, .extendedLockLength, .editFlows, .fileVersion], on: target, label: "sqlite, coauth")
        }
    }

    /// `wopi-host serve --coauthoring` with explicit endpoints turns the groups on in the real example host.
    @Test func serveWithCoauthoringFlags() async throws {
        let endpoints = ValidatorTarget.coauthoringEndpoints
        try await ValidatorTarget.withHost(
            storage: .sqlite,
            extraArguments: [
                "--coauthoring", "--real-time-channel-url", endpoints.realTimeChannel, "--collaboration-service-url",
                endpoints.officeCollaborationService, "--file-geo-location-code", "EU",
            ]
        ) { target in
            var target = target
            target.coauthoring = true
            // Without the delayed group: `serve` runs on the wall clock.
            let groups = ValidatorGroup.coauthCategory.filter { $0.name != ValidatorGroup.coauthLockExpiration.name }
            await ValidatorGroup.check(groups, on: target, label: "serve, sqlite")
        }
    }

    /// Without the co-authoring setting, no CSPP Plus property, header or operation appears.
    @Test func serveWithoutCoauthoringAnswersAsBefore() async throws {
        let asBefore = ValidatorCase(
            "NoCoauthoringWithoutTheSetting",
            requests: { run in
                let info = try await run.send(.checkFileInfo, expect: [.ok, .checkFileInfoSchema])
                guard case .object(let members)? = info.json else {
                    return try run.fail("CheckFileInfo is not an object")
                }
                for name in CSPPSchema.csppPlusOnly where members[name] != nil {
                    return try run.fail("CheckFileInfo has \(name) although co-authoring is not configured")
                }
                for operation: WopiOperation in [
                    .getCoauthLock(id: "C", type: "Coauth", timeout: 120, metadata: "m"), .getCoauthTable(version: nil),
                    .refreshCoauthLock(id: "C", timeout: 120, metadata: nil), .unlockCoauthLock(id: "C"),
                ] {
                    try await run.send(operation, expect: [.status([501])])
                }
                try await run.send(.lockUserVisible("L", visible: true))
                let conflict = try await run.send(.lock("other"), expect: [.lockMismatch("L")])
                for header in [
                    "X-WOPI-ConflictingLockUsername", "X-WOPI-ConflictingMechanism", "X-WOPI-CoauthTableVersion",
                ]
                where conflict.header(header) != nil {
                    return try run.fail("\(header) appeared without co-authoring")
                }
            }, cleanup: { run in await run.cleanup(.unlock("L")) })
        try await ValidatorTarget.withHost(storage: .sqlite) { target in
            let problems = await asBefore.run(on: target)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }
}
