/// One validator test case (or prerequisite): its requests, then its cleanup requests, whose failures are
/// ignored as in the validator.
struct ValidatorCase: Sendable {
    /// The validator's test categories: an `OfficeNativeClient` run includes `WopiCore` and `OfficeNativeClient`
    /// cases, a signed `OfficeOnline` run `WopiCore` and `OfficeOnline` cases.
    enum Category: String, Sendable {
        case wopiCore = "WopiCore"
        case officeNativeClient = "OfficeNativeClient"
        case officeOnline = "OfficeOnline"
        case wopiCoauth = "WopiCoauth"
    }

    let name: String
    let category: Category
    let requests: @Sendable (CaseRun) async throws -> Void
    let cleanup: @Sendable (CaseRun) async -> Void

    init(
        _ name: String, category: Category = .wopiCore, requests: @escaping @Sendable (CaseRun) async throws -> Void,
        cleanup: @escaping @Sendable (CaseRun) async -> Void = { _ in }
    ) {
        self.name = name
        self.category = category
        self.requests = requests
        self.cleanup = cleanup
    }

    /// The same case in another category.
    func inCategory(_ category: Category) -> ValidatorCase {
        ValidatorCase(name, category: category, requests: requests, cleanup: cleanup)
    }

    /// Runs the case against `target`; returns its problems (empty when it passed).
    func run(on target: ValidatorTarget) async -> [String] {
        let run = CaseRun(target: target)
        var problems: [String] = []
        do {
            try await requests(run)
        } catch is CaseRun.StepFailed {
            // Recorded by the run.
        } catch {
            problems.append("• the request could not be made: \(error)")
        }
        await cleanup(run)
        return run.problems + problems
    }
}

extension CaseRun {
    /// Cleanup requests: sent like the others, any outcome accepted, a missing saved URL skipped.
    func cleanup(_ operation: WopiOperation, overrideURL key: String? = nil) async {
        if let key, state[key] == nil { return }
        _ = try? await send(operation, overrideURL: key.flatMap { state[$0] }, expect: [.status(Set(100..<600))])
    }
}
