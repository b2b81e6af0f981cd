import Foundation
import NIOCore
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// A worked example of a custom ``AccessPolicy``: a table of grants, as a provider with its own ACLs would plug
/// in. Ana owns everything; Bob may edit, Carol may view, Dave may do nothing.
struct GrantTablePolicy: AccessPolicy, InfoDecorator {
    let grants: [String: ItemAccess] = ["bob": .edit, "carol": .view]

    func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
        if item.ownerID == user.id { return .owner }
        return grants[user.id] ?? .none
    }

    /// Branding and a close URL that say whose view this is, as a provider's decorator might.
    func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) {
        info.closeURL = "https://files.example.com/close?for=\(user.id)"
        info.disablePrint = access.permission < .edit
    }

    /// Only users with a grant (and Ana) browse containers.
    func decorate(ecosystem info: inout CheckEcosystemResponse, user: WOPIUser) {
        info.supportsContainers = user.id == "ana" || grants[user.id] != nil
    }
}

/// Who calls, with which token: the rows of the permission table.
enum Caller: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case owner, editor, viewer, ownerWithViewToken, stranger

    var user: String {
        switch self {
        case .owner, .ownerWithViewToken: "ana"
        case .editor: "bob"
        case .viewer: "carol"
        case .stranger: "dave"
        }
    }

    var permission: Permission { self == .ownerWithViewToken ? .view : .edit }

    /// The status of an operation that reads, and of one that changes content.
    var readStatus: Int { self == .stranger ? 404 : 200 }
    var writeStatus: Int {
        switch self {
        case .owner, .editor: 200
        case .viewer, .ownerWithViewToken: 401
        case .stranger: 404
        }
    }

    var testDescription: String { rawValue }
}

@Suite("Access policy: every WOPI operation against each permission, through the host's routes, in-process")
struct AccessPolicyTests {
    /// The permission table under the worked example's grants, and under the default policy with real shares of
    /// the folder (Bob edits, Carol views).
    @Test(arguments: Caller.allCases, ["grant table", "shares"])
    func everyOperationFollowsThePolicy(_ caller: Caller, _ policyKind: String) async throws {
        let sharing = SharingFixture()
        let policy: any AccessPolicy = policyKind == "shares" ? sharing.policy : GrantTablePolicy()
        let decorators: [any InfoDecorator] = policyKind == "shares" ? [] : [GrantTablePolicy()]
        try await TestHost.run(storage: sharing.storage, policy: policy, decorators: decorators) { wopi in
            let storage = wopi.host.storage
            let root = try await storage.rootContainer(forUser: "ana")
            let folder = try await storage.createContainer(named: "Team", in: root.id)
            for (grantee, permission) in [("bob", Permission.edit), ("carol", .view)] {
                try await sharing.shares.grant(
                    Share(
                        itemID: folder.id, granteeID: grantee, permission: permission, grantedBy: "ana",
                        grantedAt: Date()))
            }
            let emptyFolder = try await storage.createContainer(named: "Old", in: folder.id)
            func seed(_ name: String) async throws -> FileMetadata {
                try await storage.createFile(
                    named: name, in: folder.id, content: ByteStream(chunks: [ByteBuffer(string: "v1")]),
                    overwrite: false)
            }
            let plan = try await seed("Plan.docx")
            let doomed = try await seed("Doomed.docx")
            func token(_ resource: AccessToken.Resource) -> String {
                wopi.token(resource, user: caller.user, permission: caller.permission)
            }
            func file(_ id: ItemID, _ suffix: String = "") -> String {
                wopi.fileURL(id, suffix, token: token(.file(id)))
            }
            func container(_ id: ItemID, _ suffix: String = "") -> String {
                wopi.containerURL(id, suffix, token: token(.container(id)))
            }
            var rows: [(String, Int, Int)] = []
            func row(_ name: String, _ expected: Int, _ reply: HTTP.Reply) {
                rows.append((name, expected, reply.status))
            }

            // Reads.
            row("CheckFileInfo", caller.readStatus, try await wopi.get(file(plan.id)))
            row("GetFile", caller.readStatus, try await wopi.get(file(plan.id, "/contents")))
            row("GetLock", caller.readStatus, try await wopi.post(file(plan.id), ["X-WOPI-Override": "GET_LOCK"]))
            row("EnumerateAncestors", caller.readStatus, try await wopi.get(file(plan.id, "/ancestry")))
            row(
                "AddActivities", caller.readStatus,
                try await wopi.post(
                    file(plan.id), ["X-WOPI-Override": "ADD_ACTIVITIES"],
                    body: #"{"Activities": [{"Type": "comment", "Id": "1"}]}"#))
            row("CheckContainerInfo", caller.readStatus, try await wopi.get(container(folder.id)))
            row("EnumerateChildren", caller.readStatus, try await wopi.get(container(folder.id, "/children")))
            // Writes.
            let lock = ["X-WOPI-Lock": "L-\(caller)"]
            row(
                "Lock", caller.writeStatus,
                try await wopi.post(file(plan.id), lock.merging(["X-WOPI-Override": "LOCK"]) { $1 }))
            row(
                "RefreshLock", caller.writeStatus,
                try await wopi.post(file(plan.id), lock.merging(["X-WOPI-Override": "REFRESH_LOCK"]) { $1 }))
            row(
                "PutFile", caller.writeStatus,
                try await wopi.post(
                    file(plan.id, "/contents"), lock.merging(["X-WOPI-Override": "PUT"]) { $1 }, body: "v2"))
            row(
                "Unlock", caller.writeStatus,
                try await wopi.post(file(plan.id), lock.merging(["X-WOPI-Override": "UNLOCK"]) { $1 }))
            row(
                "PutRelativeFile", caller.writeStatus,
                try await wopi.post(
                    file(plan.id), ["X-WOPI-Override": "PUT_RELATIVE", "X-WOPI-SuggestedTarget": ".pdf"], body: "pdf"))
            row(
                "RenameFile", caller.writeStatus,
                try await wopi.post(
                    file(plan.id), ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "Plan 2"]))
            row("DeleteFile", caller.writeStatus, try await wopi.post(file(doomed.id), ["X-WOPI-Override": "DELETE"]))
            row(
                "CreateChildFile", caller.writeStatus,
                try await wopi.post(
                    container(folder.id), ["X-WOPI-Override": "CREATE_CHILD_FILE", "X-WOPI-SuggestedTarget": ".xlsx"]))
            row(
                "CreateChildContainer", caller.writeStatus,
                try await wopi.post(
                    container(folder.id),
                    ["X-WOPI-Override": "CREATE_CHILD_CONTAINER", "X-WOPI-SuggestedTarget": "Sub"]))
            row(
                "RenameContainer", caller.writeStatus,
                try await wopi.post(
                    container(emptyFolder.id),
                    ["X-WOPI-Override": "RENAME_CONTAINER", "X-WOPI-RequestedName": "Older"]))
            row(
                "DeleteContainer", caller.writeStatus,
                try await wopi.post(container(emptyFolder.id), ["X-WOPI-Override": "DELETE_CONTAINER"]))

            for (name, expected, got) in rows {
                #expect(got == expected, "\(caller), \(policyKind): \(name) answered \(got), expected \(expected)")
            }
            // A refused writer changed nothing.
            let content = try await storage.readFile(plan.id).body.collect(upTo: 1024)
            let names = try await storage.children(of: folder.id).map(\.name).sorted()
            if caller.writeStatus != 200 {
                #expect(String(buffer: content) == "v1")
                #expect(names == ["Doomed.docx", "Old", "Plan.docx"])
            } else {
                #expect(String(buffer: content) == "v2")
                #expect(!names.contains("Doomed.docx") && !names.contains("Old"))
            }
        }
    }

    @Test(arguments: Caller.allCases.filter { $0 != .stranger })
    func checkFileInfoSaysWhatTheCallerMayDo(_ caller: Caller) async throws {
        try await TestHost.run(policy: GrantTablePolicy(), decorators: [GrantTablePolicy()]) { wopi in
            let file = try await wopi.seedFile("Plan.docx")
            let token = wopi.token(.file(file.id), user: caller.user, permission: caller.permission)
            let reply = try await wopi.get(wopi.fileURL(file.id, token: token))
            let info = try WOPIJSON.decoder.decode(CheckFileInfo.self, from: Data(reply.body.readableBytesView))
            let writes = caller.writeStatus == 200
            #expect(info.userCanWrite == writes && info.readOnly == !writes)
            #expect(info.userCanRename == writes && info.userCanNotWriteRelative == !writes)
            #expect(info.userID == caller.user && info.ownerID == "ana")
            #expect(info.closeURL == "https://files.example.com/close?for=\(caller.user)", "the policy's hook ran")
            #expect(info.disablePrint == !writes)
        }
    }

    @Test("CheckEcosystem goes through the policy's hook for each user")
    func checkEcosystemFollowsTheHook() async throws {
        try await TestHost.run(policy: GrantTablePolicy(), decorators: [GrantTablePolicy()]) { wopi in
            for (user, browses) in [("ana", true), ("carol", true), ("dave", false)] {
                let reply = try await wopi.get(
                    "\(wopi.wopiRoot)/ecosystem?access_token=\(wopi.token(.ecosystem, user: user))")
                #expect(reply.status == 200)
                let info = try WOPIJSON.decoder.decode(
                    CheckEcosystemResponse.self, from: Data(reply.body.readableBytesView))
                #expect(info.supportsContainers == browses, "\(user)")
            }
        }
    }

    @Test(
        "a view token stays view-only through the URLs it hands out, and a stranger's listing hides what they may not see"
    )
    func tradedTokensKeepThePermission() async throws {
        try await TestHost.run(policy: GrantTablePolicy(), decorators: [GrantTablePolicy()]) { wopi in
            let root = try await wopi.host.storage.rootContainer(forUser: "ana")
            _ = try await wopi.seedFile("Plan.docx")
            let listing = try await wopi.get(
                wopi.containerURL(root.id, "/children", token: wopi.token(.container(root.id), permission: .view)))
            let children = try WOPIJSON.decoder.decode(
                EnumerateChildrenResponse.self, from: Data(listing.body.readableBytesView))
            let childURL = try #require(children.childFiles.first?.url)
            let info = try WOPIJSON.decoder.decode(
                CheckFileInfo.self, from: Data(try await wopi.get(childURL).body.readableBytesView))
            #expect(info.userCanWrite == false, "a token traded from a view token is a view token")
            let put = try await wopi.post(
                childURL.replacingOccurrences(of: "?", with: "/contents?"), ["X-WOPI-Override": "PUT"], body: "x")
            #expect(put.status == 401)
        }
    }
}
