import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIStorage

/// `wopi-host locks [--json]` lists the held locks, each with its file's owner and path; `wopi-host locks --break
/// FILE` ends the locks on one file.
struct LocksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locks", abstract: "List the held WOPI and coauth locks, or break the locks on a file.")

    @OptionGroup var data: DataOptions
    @Flag(name: .long, help: "Print JSON instead of a table.") var json = false
    @Option(name: .customLong("break"), help: "End every lock on this file ID, so a new session can lock it.")
    var breakFile: String?

    func validate() throws {
        if let breakFile, ItemID(rawValue: breakFile) == nil {
            throw ValidationError("\"\(breakFile)\" is not a file ID.")
        }
    }

    func run() async throws {
        let directory = try await data.open()
        if directory.database == nil, directory.settings.storage == .fs {
            throw ValidationFailure(
                "The fs storage keeps its locks in the memory of the serving process, out of this command's reach; "
                    + "restart the server to end them, or use --storage sqlite or a PostgreSQL --database.")
        }
        let stores = try await directory.stores()
        let deployment = try await WOPIDeployment(stores: stores, configuration: .init())
        if let breakFile, let file = ItemID(rawValue: breakFile) {
            let ended = try await deployment.breakLocks(on: file)
            print("broke \(ended) lock\(ended == 1 ? "" : "s") on \(file)")
            return
        }
        let locks = try await deployment.heldLocks()
        var names: [ItemID: (owner: String, path: String)] = [:]
        for lock in locks where names[lock.file] == nil {
            // A file deleted since it was locked has no name: its row says so with "-".
            names[lock.file] = try await OwnedItem.ownerAndPath(of: lock.file, in: stores)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            var rows = try JSONSerialization.jsonObject(with: encoder.encode(locks)) as? [[String: Any]] ?? []
            for (index, lock) in locks.enumerated() {
                rows[index]["owner"] = names[lock.file]?.owner
                rows[index]["path"] = names[lock.file]?.path
            }
            let output = try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys, .prettyPrinted])
            print(String(decoding: output, as: UTF8.self))
            return
        }
        let now = Date()
        print("FILE\tKIND\tLOCK\tHOLDER\tAGE\tEXPIRES IN\tOWNER\tPATH")
        for lock in locks {
            let age = lock.takenAt.map { "\(Int(now.timeIntervalSince($0)))s" } ?? "-"
            let name = names[lock.file]
            print(
                "\(lock.file)\t\(lock.kind.rawValue)\t\(lock.id)\t\(lock.holder ?? "-")\t\(age)\t"
                    + "\(Int(lock.expiresAt.timeIntervalSince(now)))s\t\(name?.owner ?? "-")\t\(name?.path ?? "-")")
        }
    }
}
