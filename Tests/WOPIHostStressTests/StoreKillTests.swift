import Foundation
import SQLiteStorage
import Testing
import WOPITestSupport

/// SIGKILL of `wopi-host user add` and `wopi-host client add` at random moments of their run (issue 16 item 4):
/// after every kill the stores reopen, and every user and client whose command finished is still there.
@Suite(.serialized) struct StoreKillTests {
    static let seed: UInt64 = 0x5107_E5
    static let rounds = 12

    @Test("SIGKILL in the middle of user and client writes: the stores reopen consistent", arguments: ["fs", "sqlite"])
    func sigkillDuringUserAndClientWrites(_ storage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = ["--data", directory.url.path]
        _ = try await HostProcess.run(
            ["user", "add", "first", "--password-stdin", "--storage", storage] + data, input: "first password\n")
        var users = ["first"]
        var clients: [String] = []
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
        }
        print("store kills (\(storage)): \(killed) of \(2 * Self.rounds) commands killed before they finished")
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
