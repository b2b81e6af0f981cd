private typealias V = ValidatorValues

extension ValidatorGroup {
    /// `EditFlows`: what an editor does, and PutFile on an unlocked file.
    static let editFlows = ValidatorGroup(
        name: "EditFlows",
        prerequisites: [
            Prerequisite.wopiValidator, Prerequisite.userCanWrite, Prerequisite.fileEditing, Prerequisite.locks,
        ],
        cases: [
            ValidatorCase(
                "BasicEdit",
                requests: { run in
                    try await run.send(
                        .checkFileInfo,
                        expect: [.json(V.basicCheckFileInfoRules + V.viewingURLRules)])
                    try await run.send(.lock(V.lockString))
                    try await run.send(.getFile(lock: V.lockString))
                    try await run.send(.putFile(lock: V.lockString, document: .wordSimpleDocument))
                    try await run.send(.unlock(V.lockString))
                    // Digest §17.3: the saved content is what GetFile returns next.
                    try await run.send(.getFile(lock: nil), expect: [.ok, .content(.wordSimpleDocument)])
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "EditNoChange",
                requests: { run in
                    try await run.send(.checkFileInfo, expect: [.json(V.basicCheckFileInfoRules)])
                    try await run.send(.lock(V.lockString))
                    try await run.send(.getFile(lock: V.lockString))
                    try await run.send(.putFile(lock: V.lockString, document: .wordSimpleDocument))
                    try await run.send(.unlock(V.lockString))
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "PutUnlockedFile",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.putFile(lock: V.lockString, document: .zeroByteFile))
                    try await run.send(.unlock(V.lockString))
                    try await run.send(.putFile(lock: nil, document: .wordBlankDocument))
                    try await run.send(.getFile(lock: nil), expect: [.ok, .content(.wordBlankDocument)])
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "PutUnlockedFileNotZeroBytes",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.putFile(lock: V.lockString, document: .wordBlankDocument))
                    try await run.send(.unlock(V.lockString))
                    try await run.send(.putFile(lock: nil, document: .wordSimpleDocument), expect: [.status([409])])
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "GetPutFileWithInvalidAccessToken",
                requests: { run in
                    try await run.send(.checkFileInfo)
                    try await run.send(.lock(V.lockString))
                    try await run.send(.getFile(lock: V.lockString), token: V.invalidToken, expect: [.invalidToken])
                    try await run.send(.getFile(lock: V.lockString))
                    try await run.send(
                        .putFile(lock: V.lockString, document: .wordSimpleDocument), token: V.invalidToken,
                        expect: [.invalidToken])
                    try await run.send(.putFile(lock: V.lockString, document: .wordSimpleDocument))
                    try await run.send(.unlock(V.lockString))
                }, cleanup: unlocking(V.lockString)),
        ])

    /// `FileVersion`: `X-WOPI-ItemVersion` on GetFile, Lock, Unlock and PutFile.
    static let fileVersion = ValidatorGroup(
        name: "FileVersion", prerequisites: [Prerequisite.wopiValidator, Prerequisite.locks],
        cases: [
            ValidatorCase("files.GetFileReturnsVersion") { run in
                try await run.send(.getFile(lock: nil), expect: [.header("X-WOPI-ItemVersion")])
            },
            ValidatorCase(
                "files.LockReturnsVersion",
                requests: { run in
                    try await run.send(.lock(V.lockString), expect: [.header("X-WOPI-ItemVersion")])
                    try await run.send(.unlock(V.lockString))
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "files.UnlockReturnsVersion",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.unlock(V.lockString), expect: [.header("X-WOPI-ItemVersion")])
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "files.PutFileReturnsVersion",
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(
                        .putFile(lock: V.lockString, document: .wordSimpleDocument),
                        expect: [.header("X-WOPI-ItemVersion")])
                    try await run.send(.unlock(V.lockString))
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "files.PutFileReturnsDifferentVersion", category: .officeNativeClient,
                requests: { run in
                    try await run.send(.lock(V.lockString))
                    try await run.send(.checkFileInfo, save: [("OriginalVersion", "Version")])
                    let original = try run.saved("OriginalVersion")
                    try await run.send(
                        .putFile(lock: V.lockString, document: .wordSimpleDocument),
                        expect: [.header("X-WOPI-ItemVersion", expected: original, shouldMatch: false)],
                        save: [("SecondVersion", "header:X-WOPI-ItemVersion")])
                    let second = try run.saved("SecondVersion")
                    try await run.send(
                        .putFile(lock: V.lockString, document: .wordComplexDocument),
                        expect: [.header("X-WOPI-ItemVersion", expected: second, shouldMatch: false)])
                    try await run.send(.unlock(V.lockString))
                }, cleanup: unlocking(V.lockString)),
            ValidatorCase(
                "files.LockAndUnlockAfterGetFileReturnsSameVersion", category: .officeNativeClient,
                requests: { run in
                    try await run.send(.checkFileInfo, save: [("OriginalVersion", "Version")])
                    let original = try run.saved("OriginalVersion")
                    let sameVersion = ResponseRule.header("X-WOPI-ItemVersion", expected: original)
                    try await run.send(.getFile(lock: nil), expect: [sameVersion])
                    try await run.send(.lock(V.lockString), expect: [sameVersion])
                    try await run.send(.unlock(V.lockString), expect: [sameVersion])
                }, cleanup: unlocking(V.lockString)),
        ])

    /// `PutUserInfo`: the stored UserInfo comes back in CheckFileInfo.
    static let putUserInfo = ValidatorGroup(
        name: "PutUserInfo", prerequisites: [Prerequisite.wopiValidator, Prerequisite.userInfo],
        cases: [
            ValidatorCase("PutUserInfoSucceeds") { run in
                try await run.send(.putUserInfo("PutUserInfoTest"))
                try await run.send(
                    .checkFileInfo, expect: [.json([.string("UserInfo", required: true, equals: "PutUserInfoTest")])])
            }
        ])
}
