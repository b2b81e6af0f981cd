private typealias V = ValidatorValues

extension ValidatorGroup {
    /// `Ecosystem`: GetEcosystem, CheckEcosystem and GetRootContainer.
    static let ecosystem = ValidatorGroup(
        name: "Ecosystem",
        prerequisites: [Prerequisite.wopiValidator, Prerequisite.containers, Prerequisite.ecosystem],
        cases: [
            ValidatorCase("files.GetEcosystem") { run in
                try await run.send(
                    .getEcosystem, expect: [.json([.absoluteURL("Url", required: true, mustIncludeAccessToken: true)])])
            },
            ValidatorCase("ecosystem.CheckEcosystem") { run in
                try await run.send(.getEcosystem, save: [("EcosystemUrl", "Url")])
                let supportsContainers = ResponseRule.json([.bool("SupportsContainers", required: true, equals: true)])
                // What the validator really sends: its request factory ignores the XML's EcosystemUrl attribute,
                // so the GET goes to the WOPISrc (a CheckFileInfo).
                try await run.send(.checkEcosystem, expect: [supportsContainers])
                // What the case means: CheckEcosystem at the URL GetEcosystem returned.
                try await run.send(
                    .checkEcosystem, overrideURL: try run.saved("EcosystemUrl"), expect: [.ok, supportsContainers])
            },
            ValidatorCase("ecosystem.GetRootContainer") { run in
                try await run.send(.getEcosystem, save: [("EcosystemUrl", "Url")])
                try await run.send(
                    .getRootContainer, overrideURL: try run.saved("EcosystemUrl"),
                    expect: [
                        .json([
                            .string("ContainerPointer.Name", required: true),
                            .absoluteURL("ContainerPointer.Url", required: true, mustIncludeAccessToken: true),
                        ])
                    ])
            },
            ValidatorCase("ecosystem.GetRootContainerInvalidAccessToken") { run in
                try await run.send(.getEcosystem, save: [("EcosystemUrl", "Url")])
                try await run.send(
                    .getRootContainer, overrideURL: try run.saved("EcosystemUrl"), token: V.invalidToken,
                    expect: [.invalidToken])
            },
        ])
}

extension CaseRun {
    /// EnumerateAncestors on the test file; saves and returns the last ancestor's URL (the parent container).
    @discardableResult
    func parentContainer() async throws -> String {
        try await send(.enumerateAncestors, save: [("ParentContainerUrl", "AncestorsWithRootFirst[-1:].Url")])
        return try saved("ParentContainerUrl")
    }

    /// CheckContainerInfo on `url`: `flag` must be true.
    func requireContainerFlag(_ flag: String, on url: String) async throws {
        try await send(
            .checkContainerInfo, overrideURL: url, expect: [.json([.bool(flag, required: true, equals: true)])])
    }
}
