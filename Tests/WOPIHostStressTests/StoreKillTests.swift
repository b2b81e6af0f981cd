import Foundation
import SQLiteStorage
import Testing
import WOPITestSupport

/// SIGKILL of `wopi-host user add`, `wopi-host client add` and `wopi-host share` at random moments of their run
/// (issue 16 item 4): after every kill the stores reopen, and every user, client and share whose command finished
/// is still there.
@Suite(.serialized) struct StoreKillTests {
    static let seed: UInt64 = 0x5107_E5
    static let rounds = 12

    @Test(
        "SIGKILL in the middle of user, client and share writes: the stores reopen consistent",
        arguments: ["fs", "sqlite"])
    func sigkillDuringUserClientAndShareWrites(_ storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = ["--data", directory.url.path]
        _ = try await HostProcess.run(
            ["user", "add", "first", "--password-stdin", "--storage", storage] + data, input: "first password\n")
        _ = try await HostProcess.run(
            ["user", "add", "friend", "--password-stdin"] + data, input: "friend password\n")
        var users = ["first", "friend"]
        var clients: [String] = []
        var shares: [String] = []
        var random = SeededGenerator(seed: Self.seed)
        var killed = 0
        for round in 0..<Self.rounds {
            let user = "user\(round)"
            if try await Self.runAndKill(
                ["user", "add", user, "--password-stdin"] + data, input: "password \(round)\n",
                after: .milliseconds(Int.random(in: 20...600, using: &random)))
            {
                users.append(user)
            } else {
                killed += 1
            }
            // A file of its own per round (imported whole first), shared while the share command may be killed.
            let file = "Shared-\(round).txt"
            let local = directory.url.appendingPathComponent(file)
            try Data(file.utf8).write(to: local)
            _ = try await HostProcess.run(["import", "--user", "first", local.path, file] + data)
            if try await Self.runAndKill(
                ["share", "--user", "first", file, "--with", "friend"] + (round.isMultiple(of: 2) ? ["--view"] : [])
                    + data,
                input: nil, after: .milliseconds(Int.random(in: 20...1_200, using: &random)))
            {
                shares.append("Shared with me/\(file)  by first  \(round.isMultiple(of: 2) ? "view" : "edit")")
            } else {
                killed += 1
            }
            let client = "client\(round)"
            if try await Self.runAndKill(
                ["client", "add", client, "--public", "--redirect-uri", "http://127.0.0.1/callback"] + data,
                input: nil, after: .milliseconds(Int.random(in: 20...400, using: &random)))
            {
                clients.append(client)
            } else {
                killed += 1
            }
            let listedUsers = try await HostProcess.run(["user", "list"] + data)
            for user in users {
                #expect(listedUsers.contains(user + "\t"), "round \(round): user \(user) is kept")
            }
            let listedClients = try await HostProcess.run(["client", "list"] + data)
            for client in clients {
                #expect(listedClients.contains(client), "round \(round): client \(client) is kept")
            }
            let listedShares = try await HostProcess.run(["shares", "--user", "friend"] + data)
            for share in shares {
                #expect(listedShares.contains(share), "round \(round): the share \(share) is kept")
            }
        }
        print(
            "store kills (\(storage)): \(killed) of \(3 * Self.rounds) commands killed before they finished; \(shares.count) shares finished"
        )
        #expect(killed > 0, "some commands were killed while running")
        if storage == "sqlite" {
            let database = try SQLiteDatabase(path: directory.url.appendingPathComponent("wopi.sqlite").path)
            #expect(try await database.integrityCheck() == ["ok"])
            try database.close()
        }
    }

    /// Starts `wopi-host arguments…`, SIGKILLs it after `delay` unless it finished; `true` when it finished
    /// successfully by itself.
    static func runAndKill(_ arguments: [String], input: String?, after delay: Duration) async throws -> Bool {
        let process = Process()
        process.executableURL = HostProcess.executable
        process.arguments = arguments
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        ChildProcesses.register(process.processIdentifier)
        defer { ChildProcesses.unregister(process.processIdentifier) }
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        try await Task.sleep(for: delay)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}
