import Foundation
import HTTPTypes
import NIOCore
import Testing
import WOPIHTTPEdge
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// Every file operation through the host's routes, in-process (Docs/wopi-protocol.md §4, §5).
@Suite struct FileOperationTests {
    @Test func checkFileInfoDescribesFileUserAndHost() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("Budget.xlsx", "1234")
            let reply = try await wopi.get(wopi.fileURL(file.id))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
            let info = try WOPIJSON.decoder.decode(CheckFileInfo.self, from: Data(reply.body.readableBytesView))
            #expect(info.baseFileName == "Budget.xlsx")
            #expect(info.fileExtension == ".xlsx")
            #expect(info.size == 4)
            #expect(info.version == file.version)
            #expect(info.userID == "ana" && info.ownerID == "ana")
            #expect(info.sha256 == file.sha256?.base64EncodedString())
            #expect(info.isEduUser == false && info.licenseCheckForEditIsEnabled == false)
            #expect(info.supportsLocks == true && info.supportsGetLock == true && info.supportsUpdate == true)
            #expect(!reply.text.contains("null"), "WOPI forbids null values")
            #expect(!reply.text.contains("SupportsCoauth") && !reply.text.contains("SharingStatus"))
        }
    }

    @Test("a path routes by its first segment that starts with wopi, in any case; one without names nothing")
    func routesByTheWOPISegment() async throws {
        let wopi = TestHost()
        let file = try await wopi.seedFile("a.docx")
        let query = "?access_token=\(wopi.token(.file(file.id)))"
        for prefix in ["/wopi", "/WOPI", "/api/v2/WopiV2", "//wOpI/"] {
            let response = await wopi.host.handle(TestHost.getRequest("\(prefix)/files/\(file.id)\(query)"))
            #expect(response.status == .ok, "\(prefix)")
        }
        for path in ["/wop/files/\(file.id)", "/files/\(file.id)", "/wopi/files", "/wopi/files/\(file.id)/x/y"] {
            #expect(await wopi.host.handle(TestHost.getRequest(path + query)).status == .notFound, "\(path)")
        }
    }

    @Test func tokensAreCheckedBeforeAnything() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("a.docx")
            let other = try await wopi.seedFile("b.docx")
            #expect(try await wopi.get("\(wopi.wopiRoot)/files/\(file.id)").status == 401)
            var tampered = Array(wopi.token(.file(file.id)))
            tampered[3] = tampered[3] == "A" ? "B" : "A"
            #expect(try await wopi.get(wopi.fileURL(file.id, token: String(tampered))).status == 401)
            #expect(
                try await wopi.get(wopi.fileURL(file.id, token: wopi.token(.file(file.id), lifetime: -5))).status == 401
            )
            // A valid token for another file, or for another user's file, does not open this one.
            #expect(try await wopi.get(wopi.fileURL(file.id, token: wopi.token(.file(other.id)))).status == 404)
            #expect(
                try await wopi.get(wopi.fileURL(file.id, token: wopi.token(.file(file.id), user: "bob"))).status == 404)
            // The token is also accepted as a bearer header.
            let bearer = try await wopi.get(
                "\(wopi.wopiRoot)/files/\(file.id)", headers: ["Authorization": "Bearer \(wopi.token(.file(file.id)))"])
            #expect(bearer.status == 200)
            // A file that does not exist.
            let missing = ItemID(rawValue: "nosuchfile")!
            #expect(try await wopi.get(wopi.fileURL(missing)).status == 404)
        }
    }

    @Test func getFileStreamsContentWithVersionAndHonoursMaxExpectedSize() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("a.docx", "content")
            let reply = try await wopi.get(wopi.fileURL(file.id, "/contents"))
            #expect(reply.status == 200 && reply.text == "content")
            #expect(reply.header("X-WOPI-ItemVersion") == file.version)
            #expect(
                try await wopi.get(wopi.fileURL(file.id, "/contents"), headers: ["X-WOPI-MaxExpectedSize": "6"]).status
                    == 412)
            #expect(
                try await wopi.get(wopi.fileURL(file.id, "/contents"), headers: ["X-WOPI-MaxExpectedSize": "7"]).status
                    == 200)
        }
    }

    @Test func validatorLockSequences() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("a.wopitest")
            let url = wopi.fileURL(file.id)
            func op(_ override: String, _ headers: [String: String] = [:]) async throws -> HTTP.Reply {
                try await wopi.post(url, headers.merging(["X-WOPI-Override": override]) { $1 })
            }
            // SuccessfulLockSequence
            let lock = try await op("LOCK", ["X-WOPI-Lock": "LockString"])
            #expect(lock.status == 200 && lock.header("X-WOPI-ItemVersion") == file.version)
            #expect(lock.header("X-WOPI-Lock") == nil, "no X-WOPI-Lock on a 200 Lock")
            #expect(try await op("REFRESH_LOCK", ["X-WOPI-Lock": "LockString"]).status == 200)
            #expect(
                try await op("LOCK", ["X-WOPI-Lock": "NewLockString", "X-WOPI-OldLock": "LockString"]).status == 200)
            let getLock = try await op("GET_LOCK")
            #expect(getLock.status == 200 && getLock.header("X-WOPI-Lock") == "NewLockString")
            // LockMismatchAfterUnlockAndRelockRequest
            let stale = try await op("UNLOCK", ["X-WOPI-Lock": "LockString"])
            #expect(stale.status == 409 && stale.header("X-WOPI-Lock") == "NewLockString")
            let unlock = try await op("UNLOCK", ["X-WOPI-Lock": "NewLockString"])
            #expect(unlock.status == 200 && unlock.header("X-WOPI-ItemVersion") == file.version)
            // UnlockUnlockedFile and GetLockOnUnlockedFile: the empty X-WOPI-Lock header reaches the wire.
            let unlocked = try await op("UNLOCK", ["X-WOPI-Lock": "NewLockString"])
            #expect(unlocked.status == 409 && unlocked.header("X-WOPI-Lock") == "")
            let probe = try await op("GET_LOCK")
            #expect(probe.status == 200 && probe.header("X-WOPI-Lock") == "")
            #expect(try await op("REFRESH_LOCK", ["X-WOPI-Lock": "X"]).header("X-WOPI-Lock") == "")
            // DoubleLockSequence, then every mismatch answers 409 with the current lock.
            #expect(try await op("LOCK", ["X-WOPI-Lock": "X"]).status == 200)
            #expect(try await op("LOCK", ["X-WOPI-Lock": "X"]).status == 200)
            for (override, headers) in [
                ("LOCK", ["X-WOPI-Lock": "Y"]), ("UNLOCK", ["X-WOPI-Lock": "Y"]),
                ("REFRESH_LOCK", ["X-WOPI-Lock": "Y"]),
                ("LOCK", ["X-WOPI-Lock": "Z", "X-WOPI-OldLock": "Y"]),
            ] {
                let mismatch = try await op(override, headers)
                #expect(mismatch.status == 409 && mismatch.header("X-WOPI-Lock") == "X", "\(override) \(headers)")
            }
            // 400 on a missing or over-long lock ID; 1024 characters are fine.
            #expect(try await op("LOCK").status == 400)
            #expect(try await op("UNLOCK").status == 400)
            #expect(try await op("UNLOCK", ["X-WOPI-Lock": "X"]).status == 200)
            let long = String(repeating: "L", count: 1024)
            #expect(try await op("LOCK", ["X-WOPI-Lock": long]).status == 200)
            #expect(try await op("GET_LOCK").header("X-WOPI-Lock") == long)
            #expect(try await op("UNLOCK", ["X-WOPI-Lock": long]).status == 200)
            #expect(try await op("LOCK", ["X-WOPI-Lock": long + "L"]).status == 400)
            // An unknown override is not implemented.
            #expect(try await op("FROBNICATE").status == 501)
        }
    }

    @Test func putFileFollowsTheLockRulesAndChangesTheVersion() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("a.docx", "old")
            let contents = wopi.fileURL(file.id, "/contents")
            let url = wopi.fileURL(file.id)
            // PutUnlockedFileNotZeroBytes
            let refused = try await wopi.post(contents, ["X-WOPI-Override": "PUT"], body: "new")
            #expect(refused.status == 409 && refused.header("X-WOPI-Lock") == "")
            _ = try await wopi.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L1"])
            let mismatch = try await wopi.post(contents, ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L2"], body: "new")
            #expect(mismatch.status == 409 && mismatch.header("X-WOPI-Lock") == "L1")
            let put = try await wopi.post(contents, ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L1"], body: "new")
            #expect(put.status == 200)
            let newVersion = try #require(put.header("X-WOPI-ItemVersion"))
            #expect(newVersion != file.version)
            let unlock = try await wopi.post(url, ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "L1"])
            #expect(unlock.header("X-WOPI-ItemVersion") == newVersion)
            let info = try await wopi.get(url).json()
            #expect(info["Version"] as? String == newVersion)
            #expect(try await wopi.get(contents).text == "new")
            // PutUnlockedFile: an unlocked empty file accepts a PutFile without a lock.
            let empty = try await wopi.seedFile("new.docx", "")
            let first = try await wopi.post(
                wopi.fileURL(empty.id, "/contents"), ["X-WOPI-Override": "PUT"], body: "fresh")
            #expect(first.status == 200)
            #expect(try await wopi.get(wopi.fileURL(empty.id, "/contents")).text == "fresh")
        }
    }

    @Test func putFileAboveTheSizeLimitIs413AndKeepsTheOldContent() async throws {
        var configuration = WOPIHostConfiguration()
        configuration.maximumFileSize = 10
        try await TestHost.run(configuration: configuration) { wopi in
            let file = try await wopi.seedFile("a.docx", "")
            let reply = try await wopi.post(
                wopi.fileURL(file.id, "/contents"), ["X-WOPI-Override": "PUT"], body: String(repeating: "x", count: 11))
            #expect(reply.status == 413)
            #expect(try await wopi.get(wopi.fileURL(file.id, "/contents")).text == "")
        }
    }

    @Test func putRelativeFileSuggestedAndSpecificModes() async throws {
        try await TestHost.run { wopi in
            let source = try await wopi.seedFile("Report.docx", "v1")
            let url = wopi.fileURL(source.id)
            func put(_ headers: [String: String], _ body: String = "copy") async throws -> HTTP.Reply {
                try await wopi.post(url, headers.merging(["X-WOPI-Override": "PUT_RELATIVE"]) { $1 }, body: body)
            }
            // An extension alone takes the source's base name; a clash is renamed, keeping the extension.
            let pdf = try await put(["X-WOPI-SuggestedTarget": ".pdf"])
            #expect(pdf.status == 200)
            #expect(try pdf.json()["Name"] as? String == "Report.pdf")
            let clash = try await put(["X-WOPI-SuggestedTarget": "Report.docx"])
            let clashName = try #require(try clash.json()["Name"] as? String)
            #expect(clash.status == 200 && clashName != "Report.docx" && clashName.hasSuffix(".docx"))
            // The returned URL works at once (CheckFileInfo) and carries a token.
            let newURL = try #require(try clash.json()["Url"] as? String)
            #expect(newURL.contains("access_token="))
            #expect(try await wopi.get(newURL).status == 200)
            // Specific mode: exact names, 409 with a valid alternative, overwrite, illegal names.
            let exact = try await put(["X-WOPI-RelativeTarget": "Exact.docx"])
            #expect(try exact.status == 200 && (try exact.json()["Name"] as? String) == "Exact.docx")
            let taken = try await put(["X-WOPI-RelativeTarget": "Exact.docx"])
            #expect(taken.status == 409)
            let valid = try #require(taken.header("X-WOPI-ValidRelativeTarget"))
            #expect(UTF7.decodeLeniently(valid) != "Exact.docx")
            let replaced = try await put(
                ["X-WOPI-RelativeTarget": "Exact.docx", "X-WOPI-OverwriteRelativeTarget": "true"], "v2")
            #expect(replaced.status == 200)
            #expect(
                try await wopi.get(
                    try #require(try replaced.json()["Url"] as? String).replacingOccurrences(
                        of: "?", with: "/contents?")
                ).text == "v2")
            #expect(try await put(["X-WOPI-RelativeTarget": "bad:name?.docx"]).status == 400)
            #expect(try await put(["X-WOPI-SuggestedTarget": ".a", "X-WOPI-RelativeTarget": "b.docx"]).status == 501)
            // A locked target cannot be overwritten: 409 with its lock.
            let target = try await wopi.seedFile("Locked.docx")
            _ = try await wopi.post(wopi.fileURL(target.id), ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "TL"])
            let locked = try await put([
                "X-WOPI-RelativeTarget": "Locked.docx", "X-WOPI-OverwriteRelativeTarget": "true",
            ])
            #expect(locked.status == 409 && locked.header("X-WOPI-Lock") == "TL")
            // UTF-7 names come back decoded; very long names are shortened or refused, never a crash.
            let utf7 = try await put(["X-WOPI-RelativeTarget": "madeup+AF8-name.wopitestx"])
            #expect(try utf7.json()["Name"] as? String == "madeup_name.wopitestx")
            let unicode = try await put(["X-WOPI-SuggestedTarget": UTF7.encode("Résumé 日本.docx")])
            #expect(try unicode.json()["Name"] as? String == "Résumé 日本.docx")
            let long = try await put(["X-WOPI-SuggestedTarget": String(repeating: "n", count: 600) + ".docx"])
            #expect(try long.status == 200 && (try long.json()["Name"] as? String)?.hasSuffix(".docx") == true)
            #expect(
                [200, 400].contains(
                    try await put(["X-WOPI-RelativeTarget": String(repeating: "n", count: 600) + ".docx"]).status))
        }
    }

    @Test func renameFileKeepsIDAndExtensionAndFollowsLocks() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("Draft.docx")
            let url = wopi.fileURL(file.id)
            let renamed = try await wopi.post(url, ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "Final"])
            #expect(try renamed.status == 200 && (try renamed.json()["Name"] as? String) == "Final")
            #expect(try await wopi.get(url).json()["BaseFileName"] as? String == "Final.docx")
            _ = try await wopi.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"])
            let wrong = try await wopi.post(
                url, ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "X", "X-WOPI-Lock": "M"])
            #expect(wrong.status == 409 && wrong.header("X-WOPI-Lock") == "L")
            let right = try await wopi.post(
                url, ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "R+AOk-sum+AOk-", "X-WOPI-Lock": "L"])
            #expect(try right.status == 200 && (try right.json()["Name"] as? String) == "Résumé")
            // A taken name is adjusted rather than refused.
            _ = try await wopi.seedFile("Taken.docx")
            let taken = try await wopi.post(
                url, ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "Taken", "X-WOPI-Lock": "L"])
            #expect(try taken.status == 200 && (try taken.json()["Name"] as? String) != "Taken")
        }
    }

    @Test func deleteFileRefusesLockedFilesThenForgetsTheFile() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("gone.docx")
            let url = wopi.fileURL(file.id)
            _ = try await wopi.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L"])
            let locked = try await wopi.post(url, ["X-WOPI-Override": "DELETE"])
            #expect(locked.status == 409 && locked.header("X-WOPI-Lock") == "L")
            _ = try await wopi.post(url, ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": "L"])
            #expect(try await wopi.post(url, ["X-WOPI-Override": "DELETE"]).status == 200)
            #expect(try await wopi.get(url).status == 404)
            #expect(
                try await wopi.post(url, ["X-WOPI-Override": "RENAME_FILE", "X-WOPI-RequestedName": "x"]).status == 404)
        }
    }

    @Test func putUserInfoIsStoredPerUser() async throws {
        try await TestHost.run { wopi in
            let file = try await wopi.seedFile("a.docx")
            let other = try await wopi.seedFile("b.docx")
            #expect(
                try await wopi.post(
                    wopi.fileURL(file.id), ["X-WOPI-Override": "PUT_USER_INFO"], body: "PutUserInfoTest"
                ).status == 200)
            #expect(try await wopi.get(wopi.fileURL(other.id)).json()["UserInfo"] as? String == "PutUserInfoTest")
        }
    }

    @Test func enumerateAncestorsAndEcosystemPointer() async throws {
        try await TestHost.run { wopi in
            let storage = wopi.host.storage
            let root = try await storage.rootContainer(forUser: wopi.user)
            let folder = try await storage.createContainer(named: "Reports", in: root.id)
            let file = try await storage.createFile(named: "Q4.xlsx", in: folder.id, content: .empty, overwrite: false)
            let ancestry = try await wopi.get(wopi.fileURL(file.id, "/ancestry"))
            let list = try #require(try ancestry.json()["AncestorsWithRootFirst"] as? [[String: String]])
            #expect(list.map { $0["Name"] } == ["ana", "Reports"])
            #expect(try await wopi.get(try #require(list.last?["Url"])).json()["Name"] as? String == "Reports")
            let pointer = try await wopi.get(wopi.fileURL(file.id, "/ecosystem_pointer"))
            let ecosystem = try #require(try pointer.json()["Url"] as? String)
            #expect(try await wopi.get(ecosystem).json()["SupportsContainers"] as? Bool == true)
        }
    }
}
