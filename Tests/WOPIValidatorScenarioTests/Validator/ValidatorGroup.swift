import Testing

/// A validator test group: prerequisites evaluated from CheckFileInfo / CheckContainerInfo flags, then its
/// test cases in order, all against the same `.wopitest` file.
struct ValidatorGroup: Sendable {
    /// What a failed prerequisite means for our test.
    enum Applicability: Sendable {
        /// The host claims the capability: a failed prerequisite (skipped group) is a failure of our test.
        case required
        /// Runs only for hosts that opt in (e.g. PutRelativeFileUnsupported, the sibling of PutRelativeFile):
        /// failed prerequisites mean "not applicable", and the reason says which test covers the host instead.
        case optional(String)
    }

    let name: String
    let prerequisites: [ValidatorCase]
    let cases: [ValidatorCase]
    var applicability: Applicability = .required

    /// The outcome of a group run.
    struct Outcome: Sendable {
        var skippedBecause: [String] = []
        var failures: [(name: String, problems: [String])] = []
        var passed: [String] = []
    }

    /// Runs the prerequisites and, when they all pass, every case.
    func run(on target: ValidatorTarget) async -> Outcome {
        var outcome = Outcome()
        for prerequisite in prerequisites {
            let problems = await prerequisite.run(on: target)
            if !problems.isEmpty {
                outcome.skippedBecause.append(
                    "\(prerequisite.name) failed:\n" + problems.joined(separator: "\n"))
            }
        }
        guard outcome.skippedBecause.isEmpty else { return outcome }
        for validatorCase in cases where target.categories.contains(validatorCase.category) {
            let problems = await validatorCase.run(on: target)
            if problems.isEmpty {
                outcome.passed.append(validatorCase.name)
            } else {
                outcome.failures.append((validatorCase.name, problems))
            }
        }
        return outcome
    }

    /// Runs the group on a fresh example host with `storage` and records failures as test issues.
    func check(storage: ValidatorTarget.Storage) async throws {
        try await Self.check([self], storage: storage)
    }

    /// Runs `groups` one after the other on one fresh example host, as the validator runs groups on one file.
    /// With `signed`, the host runs with discovery and every request is signed (an `OfficeOnline` run).
    static func check(_ groups: [ValidatorGroup], storage: ValidatorTarget.Storage, signed: Bool = false)
        async throws
    {
        try await ValidatorTarget.withHost(storage: storage, signed: signed) { target in
            await check(groups, on: target, label: signed ? "\(storage), signed" : "\(storage)")
        }
    }

    /// Runs `groups` one after the other on `target` and records failures as test issues, each prefixed with
    /// `label` (what the target runs on).
    static func check(_ groups: [ValidatorGroup], on target: ValidatorTarget, label: String) async {
        var outcomes: [Outcome] = []
        for group in groups { outcomes.append(await group.run(on: target)) }
        for (group, outcome) in zip(groups, outcomes) {
            let count = group.cases.filter { target.categories.contains($0.category) }.count
            group.report(outcome, storage: label, caseCount: count)
        }
    }

    private func report(_ outcome: Outcome, storage: String, caseCount: Int) {
        if !outcome.skippedBecause.isEmpty {
            switch applicability {
            case .required:
                Issue.record(
                    """
                    [\(storage)] group \(name) would be SKIPPED by the validator: a prerequisite failed although \
                    the host claims the capability.
                    \(outcome.skippedBecause.joined(separator: "\n"))
                    """)
            case .optional(let reason):
                print("[\(storage)] \(name): not applicable (\(reason))")
            }
            return
        }
        for failure in outcome.failures {
            let details = failure.problems.joined(separator: "\n\n")
            Issue.record("[\(storage)] \(name) / \(failure.name) FAILED:\n\(details)")
        }
        print("[\(storage)] \(name): \(outcome.passed.count)/\(caseCount) cases passed")
        #expect(outcome.passed.count + outcome.failures.count == caseCount)
    }
}
