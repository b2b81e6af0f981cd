private typealias V = ValidatorValues

extension ValidatorGroup {
    /// `FileUrlUsage`: the `FileUrl` CheckFileInfo handed out before a PutFile serves the new content after it
    /// (`GetFromFileUrlAfterPutFile`).
    static let fileUrlUsage = ValidatorGroup(
        name: "FileUrlUsage",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.userCanWrite, Prerequisite.fileEditing, Prerequisite.locks,
            Prerequisite.fileUrl,
        ],
        cases: [
            ValidatorCase(
                "GetFromFileUrlAfterPutFile",
                requests: { run in
                    try await run.send(.checkFileInfo, save: [("FileUrl", "FileUrl")])
                    try await run.send(.lock(V.lockString))
                    try await run.send(.putFile(lock: V.lockString, document: .wordSimpleDocument))
                    try await run.send(.unlock(V.lockString))
                    try await run.getFromFileUrl(
                        try run.saved("FileUrl"), expect: [.ok, .content(.wordSimpleDocument)])
                }, cleanup: unlocking(V.lockString))
        ])

    /// `FileUrlViewOnly`: the `FileUrl` answers 200 (`GetFromFileUrl`).
    static let fileUrlViewOnly = ValidatorGroup(
        name: "FileUrlViewOnly", prerequisites: [Prerequisite.wopiValidator, Prerequisite.fileUrl],
        cases: [
            ValidatorCase("GetFromFileUrl") { run in
                try await run.send(.checkFileInfo, save: [("FileUrl", "FileUrl")])
                try await run.getFromFileUrl(try run.saved("FileUrl"), expect: [.status([200])])
            }
        ])
}
