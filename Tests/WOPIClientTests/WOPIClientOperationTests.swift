import Foundation
import Testing
import WOPIClient
import WOPIModels
import WOPIStorage

/// Every WOPI operation of the client against a deployment seeded as `wopi-host serve --demo`, in-process
/// (`WOPITestTransport`); `AsyncHTTPClientTransportTests` crosses a real socket.
@Suite("WOPIClient against a demo deployment, in-process")
struct WOPIClientOperationTests {
    /// The demo user's root (from a `wopi-host token`-like file token) and a fresh folder in it for this test.
    private func scratch(_ client: WOPIClient, _ host: DemoDeployment) async throws
        -> (root: WOPIContainerPointer, folder: WOPIContainerPointer)
    {
        let file = try await host.token()
        let root = try #require(try await client.enumerateAncestors(of: file).last)
        let folder = try await client.createChildContainer(
            in: root.resource, name: .exact("test-\(UUID().uuidString.prefix(8))"))
        return (root, folder)
    }

    @Test("ecosystem, root container and listing with an extension filter")
    func ecosystemAndListing() async throws {
        try await DemoDeployment.run { host in
            try await host.withClient { client in
                let file = try await host.token()
                let info = try await client.checkFileInfo(file)
                #expect(info.baseFileName == "Welcome.docx")
                #expect(info.supportsLocks == true && info.supportsContainers == true)
                let ecosystem = try await client.ecosystem(of: file)
                #expect(try await client.checkEcosystem(ecosystem).supportsContainers == true)
                let root = try await client.rootContainer(ecosystem: ecosystem)
                #expect(try await client.enumerateAncestors(of: root.resource).isEmpty)
                #expect(try await client.enumerateAncestors(of: file).map(\.resource.id) == [root.resource.id])
                #expect(try await client.checkContainerInfo(root.resource).name == root.name)

                let all = try await client.enumerateChildren(of: root.resource)
                #expect(Set(all.files.map(\.name)).isSuperset(of: ["Welcome.docx", "Budget.xlsx", "Notes.txt"]))
                #expect(all.containers.map(\.name).contains("Documents"))
                let welcome = try #require(all.files.first { $0.name == "Welcome.docx" })
                #expect(welcome.size == info.size && welcome.version == info.version)
                #expect(welcome.resource.accessToken != nil)

                let filtered = try await client.enumerateChildren(of: root.resource, extensions: [".DOCX", "xlsx"])
                #expect(Set(filtered.files.map(\.name)) == ["Welcome.docx", "Budget.xlsx"])
                #expect(filtered.containers.map(\.name).contains("Documents"))
            }
        }
    }

    @Test("containers: create (exact, suggested, conflict), rename with UTF-7 names, ancestors, delete")
    func containers() async throws {
        try await DemoDeployment.run { host in
            try await host.withClient { client in
                let (root, folder) = try await scratch(client, host)
                let child = try await client.createChildContainer(in: folder.resource, name: .exact("Größe 日本 ✓"))
                #expect(child.name == "Größe 日本 ✓")
                #expect(child.info?.userCanCreateChildFile == true)
                let conflict = await clientError {
                    try await client.createChildContainer(in: folder.resource, name: .exact("Größe 日本 ✓"))
                }
                #expect(conflict?.code == .conflict)
                let suggested = try await client.createChildContainer(
                    in: folder.resource, name: .suggested("Größe 日本 ✓"))
                #expect(suggested.name != child.name && suggested.name.hasPrefix("Größe 日本 ✓"))

                #expect(try await client.renameContainer(child.resource, to: "Q4 – Résumé") == "Q4 – Résumé")
                #expect(try await client.checkContainerInfo(child.resource).name == "Q4 – Résumé")
                #expect(
                    try await client.enumerateAncestors(of: child.resource).map(\.resource.id)
                        == [root.resource.id, folder.resource.id])

                let file = try await client.createChildFile(in: child.resource, name: .exact("a+b.docx"))
                #expect(file.name == "a+b.docx")
                let notEmpty = await clientError { try await client.deleteContainer(child.resource) }
                #expect(notEmpty?.code == .conflict)
                try await client.deleteFile(file.resource)
                try await client.deleteContainer(child.resource)
                #expect(await clientError { try await client.checkContainerInfo(child.resource) }?.code == .notFound)
                try await client.deleteContainer(suggested.resource)
                try await client.deleteContainer(folder.resource)
            }
        }
    }

    @Test("files: create, unlocked and locked PutFile, GetFile with progress and size limit, rename, relative, delete")
    func files() async throws {
        try await DemoDeployment.run { host in
            try await host.withClient { client in
                let (_, folder) = try await scratch(client, host)
                let file = try await client.createChildFile(in: folder.resource, name: .exact("Résumé 2024.docx"))
                #expect(file.name == "Résumé 2024.docx")
                let conflicting = await clientError {
                    try await client.createChildFile(in: folder.resource, name: .exact("Résumé 2024.docx"))
                }
                #expect(conflicting?.code == .conflict)
                #expect(conflicting?.validRelativeTarget?.hasSuffix(".docx") == true)

                // A new, empty file may be written once without a lock; after that the lock is needed.
                try await client.putFile(file.resource, content: TestContent.text("first"), lock: nil)
                let unlocked = await clientError {
                    try await client.putFile(file.resource, content: TestContent.text("second"), lock: nil)
                }
                #expect(unlocked?.code == .lockConflict)
                #expect(unlocked?.currentLock == "")

                let before = try await client.checkFileInfo(file.resource)
                try await client.lock(file.resource, lockID: "L1")
                #expect(try await client.getLock(file.resource) == "L1")
                let size = 3 * 1024 * 1024 + 17
                let upload = ProgressLog()
                let version = try await client.putFile(
                    file.resource, content: TestContent.pattern(size: size), lock: "L1", progress: upload.callback)
                #expect(version != nil && version != before.version)
                #expect(upload.isMonotonic && upload.last?.0 == Int64(size))
                #expect(try await client.checkFileInfo(file.resource).version == version)

                let download = ProgressLog()
                let content = try await client.getFile(
                    file.resource, maxExpectedSize: Int64(size), progress: download.callback)
                #expect(content.version == version && content.length == Int64(size))
                let (digest, count) = try await TestContent.sha256(content.body)
                #expect(count == Int64(size))
                #expect(digest == (try await TestContent.sha256(TestContent.pattern(size: size))).0)
                #expect(download.isMonotonic && download.last?.0 == Int64(size))
                let tooBig = await clientError { try await client.getFile(file.resource, maxExpectedSize: 10) }
                #expect(tooBig?.code == .preconditionFailed)

                try await client.refreshLock(file.resource, lockID: "L1")
                try await client.unlockAndRelock(file.resource, oldLockID: "L1", newLockID: "L2")
                #expect(try await client.getLock(file.resource) == "L2")
                let stolen = await clientError { try await client.lock(file.resource, lockID: "L3") }
                #expect(stolen?.code == .lockConflict && stolen?.currentLock == "L2")
                let badRename = await clientError { try await client.renameFile(file.resource, toBaseName: "CV") }
                #expect(badRename?.code == .lockConflict)
                #expect(try await client.renameFile(file.resource, toBaseName: "CV 日本", lock: "L2") == "CV 日本")
                #expect(try await client.checkFileInfo(file.resource).baseFileName == "CV 日本.docx")
                let lockedDelete = await clientError { try await client.deleteFile(file.resource) }
                #expect(lockedDelete?.code == .lockConflict && lockedDelete?.currentLock == "L2")
                try await client.unlock(file.resource, lockID: "L2")
                #expect(try await client.getLock(file.resource) == "")
                let unlockAgain = await clientError { try await client.unlock(file.resource, lockID: "L2") }
                #expect(unlockAgain?.code == .lockConflict && unlockAgain?.currentLock == "")

                let copy = try await client.putRelativeFile(
                    file.resource, target: .suggested(".txt"), content: TestContent.text("copy"))
                #expect(copy.name == "CV 日本.txt")
                #expect(try await TestContent.read(client.getFile(copy.resource).body) == "copy")
                #expect(
                    try await client.enumerateAncestors(of: copy.resource).last?.resource.id == folder.resource.id)
                try await client.deleteFile(copy.resource)
                try await client.deleteFile(file.resource)
                #expect(await clientError { try await client.checkFileInfo(file.resource) }?.code == .notFound)
            }
        }
    }

    @Test("open, save and close: the Office flow, and a second editor gets lockConflict(currentLock:)")
    func openSaveClose() async throws {
        try await DemoDeployment.run { host in
            try await host.withClient { client in
                let (_, folder) = try await scratch(client, host)
                let file = try await client.createChildFile(in: folder.resource, name: .exact("Plan.docx"))
                try await client.putFile(file.resource, content: TestContent.text("draft"), lock: nil)

                let session = try await client.openForEditing(file.resource)
                #expect(try await TestContent.read(session.content.body) == "draft")
                #expect(try await client.getLock(file.resource) == session.lockID)
                let second = await clientError { try await client.openForEditing(file.resource) }
                #expect(second?.code == .lockConflict)
                #expect(second?.currentLock == session.lockID)

                let saved = try await session.save(TestContent.text("final"))
                #expect(saved != nil && saved != session.info.version)
                try await session.close()
                #expect(try await client.getLock(file.resource) == "")
                let view = try await client.openForViewing(file.resource)
                #expect(try await TestContent.read(view.content.body) == "final")
                #expect(view.info.version == saved)
                let closed = await clientError { try await session.save(TestContent.text("late")) }
                #expect(closed?.code == .badRequest)
            }
        }
    }

    @Test("an invalid token is unauthorized, and without a bootstrapper it is not renewed")
    func invalidToken() async throws {
        try await DemoDeployment.run { host in
            try await host.withClient { client in
                let file = try await host.token()
                let forged = try WOPIResource(endpoint: file.endpoint, accessToken: "forged")
                let error = await clientError { try await client.checkFileInfo(forged) }
                #expect(error?.code == .unauthorized && error?.status == 401)
            }
        }
    }
}
