import Testing

/// The validator port in its signing mode: it plays Office for the web (category `OfficeOnline` = `WopiCore` +
/// `OfficeOnline` cases, the `ProofKeys` group included) against `wopi-host serve --discovery-url`, whose discovery
/// (served by the test) publishes the validator's current and old proof keys. Every request carries
/// `X-WOPI-Proof`, `X-WOPI-ProofOld` and `X-WOPI-TimeStamp`, changed per case by the validator's `ProofKey`
/// mutator. All groups run one after the other on one host and one file, as the validator runs them.
@Suite("WOPI validator scenarios (port, OfficeOnline, signed)", .serialized)
struct SignedValidatorScenarioTests {
    @Test(arguments: ValidatorTarget.Storage.allCases)
    func allGroupsSigned(_ storage: ValidatorTarget.Storage) async throws {
        try await ValidatorGroup.check(ValidatorGroup.all, storage: storage, signed: true)
    }

    /// Ours, not the validator's: on the same host, requests without proof headers are refused with 500 and
    /// `X-WOPI-ServerError`, whatever the operation; a garbage time stamp too.
    @Test func unsignedRequestsAreRefused() async throws {
        let problems = try await ValidatorTarget.withHost(storage: .sqlite, signed: true) { target in
            let refused: [ResponseRule] = [.status([500]), .header("X-WOPI-ServerError")]
            var problems: [String] = []
            for operation: WopiOperation in [.checkFileInfo, .getFile(lock: nil), .lock(ValidatorValues.lockString)] {
                problems += await ValidatorCase("unsigned \(operation.name)") { run in
                    try await run.send(operation, expect: refused, proofKey: .omitted)
                }.run(on: target)
            }
            problems += await ValidatorCase("signed CheckFileInfo next to them") { run in
                try await run.send(.checkFileInfo)
            }.run(on: target)
            return problems
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
    }
}
