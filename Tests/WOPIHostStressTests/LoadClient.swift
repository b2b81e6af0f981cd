import Foundation
import Testing
import WOPIModels
import WOPITestSupport

/// One client of the load test: a loop of GetFile, CheckFileInfo, GetLock, edit sessions (Lock, PutFile,
/// RefreshLock, GetFile, Unlock) and lock probes, on files shared with the other clients, until a deadline.
///
/// The client always knows whether it holds a lock (only inside an edit session), so it knows exactly which
/// answers the protocol allows: while it holds the lock every request succeeds and GetFile returns what it
/// wrote; otherwise Lock, PutFile, RefreshLock and Unlock with its lock ID are `409` with an `X-WOPI-Lock`
/// that is empty or another client's lock, never its own.
struct LoadClient {
    let index: Int
    let files: [WOPIFile]
    let base: String
    let client: WOPIClient
    let registry: VersionRegistry
    let tally: LoadTally
    var random: SeededGenerator
    private var nextVersion = 1

    static let putSizes = (8 * 1024)...(768 * 1024)
    static let lockPrefix = "load-client-"

    init(
        index: Int, files: [WOPIFile], base: String, client: WOPIClient, registry: VersionRegistry,
        tally: LoadTally, seed: UInt64
    ) {
        self.index = index
        self.files = files
        self.base = base
        self.client = client
        self.registry = registry
        self.tally = tally
        self.random = SeededGenerator(seed: seed &+ UInt64(index))
    }

    /// This client's lock ID; every client has its own.
    var lockID: String { Self.lockPrefix + String(index) }

    /// Runs operations until `deadline`; the loop ends by itself, after the edit session in progress.
    mutating func run(until deadline: ContinuousClock.Instant) async {
        while ContinuousClock.now < deadline {
            let file = files.randomElement(using: &random)!
            let dice = Int.random(in: 0..<100, using: &random)
            do {
                switch dice {
                case 0..<30: try await getFile(file, writtenByMe: nil)
                case 30..<35: try await checkFileInfo(file)
                case 35..<45: try await getLock(file, holding: false)
                case 45..<85: try await editSession(file)
                default: try await probe(file)
                }
            } catch let mismatch as ContentMismatch {
                tally.violation(mismatch.description)
            } catch {
                tally.transportFailure("client \(index): \(error)")
            }
        }
    }

    // MARK: Operations

    /// GetFile must be one complete version; the lock holder must read exactly what it wrote.
    private func getFile(_ file: WOPIFile, writtenByMe expected: (version: Int, itemVersion: String)?) async throws {
        let (reply, body) = try await client.getFile(file, at: base)
        tally.record("GetFile", reply.status)
        guard reply.status == 200 else { return tally.violation("GetFile \(file.index): \(reply.status)") }
        let marker = try registry.verify(body, isVersionOf: file.index)
        let itemVersion = reply.header(WOPIHeader.itemVersion)
        if itemVersion?.isEmpty ?? true { tally.violation("GetFile \(file.index): no X-WOPI-ItemVersion") }
        if let expected, expected.version != marker.version || expected.itemVersion != itemVersion {
            tally.violation(
                "client \(index) holds the lock on file \(file.index), wrote v\(expected.version) "
                    + "(\(expected.itemVersion)) but reads v\(marker.version) (\(itemVersion ?? "-"))")
        }
    }

    private func checkFileInfo(_ file: WOPIFile) async throws {
        let (reply, info) = try await client.checkFileInfo(file, at: base)
        tally.record("CheckFileInfo", reply.status)
        if reply.status != 200 || info?.version.isEmpty ?? true {
            tally.violation("CheckFileInfo \(file.index): \(reply.status), Version \(info?.version ?? "-")")
        }
    }

    /// GetLock is always `200`; it shows this client's lock exactly when it holds it.
    private func getLock(_ file: WOPIFile, holding: Bool) async throws {
        let reply = try await client.lockOperation(WOPIOverride.getLock, file, lock: nil, at: base)
        tally.record("GetLock", reply.status)
        let current = reply.header(WOPIHeader.lock)
        if reply.status != 200 || current == nil || (current == lockID) != holding
            || !(current?.isEmpty ?? true || current!.hasPrefix(Self.lockPrefix))
        {
            tally.violation(
                "GetLock \(file.index) by client \(index) (holding: \(holding)): \(reply.status) [\(current ?? "-")]")
        }
    }

    /// Lock; if granted, 1-3 PutFiles (some RefreshLocks between), GetFile of the last write, Unlock.
    private mutating func editSession(_ file: WOPIFile) async throws {
        let lock = try await client.lockOperation(WOPIOverride.lock, file, lock: lockID, at: base)
        tally.record("Lock", lock.status)
        guard lock.status == 200 else {
            // Lock on an unlocked file always succeeds, so a conflict names another client's lock.
            return expectConflict(lock, "Lock", file, allowUnlocked: false)
        }
        var written: (version: Int, itemVersion: String)?
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let content = registry.register(
                ContentPattern(
                    file: file.index, version: index * 1_000_000 + nextVersion,
                    size: Int.random(in: Self.putSizes, using: &random)))
            nextVersion += 1
            let put = try await client.putFile(file, lock: lockID, content: content, at: base)
            tally.record("PutFile", put.status)
            guard put.status == 200, let itemVersion = put.header(WOPIHeader.itemVersion),
                itemVersion != written?.itemVersion
            else {
                tally.violation("PutFile \(file.index) under client \(index)'s lock: \(put.status)")
                break
            }
            written = (content.version, itemVersion)
            if Bool.random(using: &random) {
                let refresh = try await client.lockOperation(WOPIOverride.refreshLock, file, lock: lockID, at: base)
                tally.record("RefreshLock", refresh.status)
                if refresh.status != 200 {
                    tally.violation("RefreshLock \(file.index) of a held lock: \(refresh.status)")
                }
            }
        }
        try await getLock(file, holding: true)
        if let written { try await getFile(file, writtenByMe: written) }
        let unlock = try await client.lockOperation(WOPIOverride.unlock, file, lock: lockID, at: base)
        tally.record("Unlock", unlock.status)
        if unlock.status != 200 || (written != nil && unlock.header(WOPIHeader.itemVersion) != written?.itemVersion) {
            tally.violation("Unlock \(file.index) of a held lock: \(unlock.status)")
        }
    }

    /// PutFile, RefreshLock or Unlock with this client's lock ID while it holds no lock: always `409`.
    private mutating func probe(_ file: WOPIFile) async throws {
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let content = registry.register(
                ContentPattern(file: file.index, version: index * 1_000_000 + nextVersion, size: 16 * 1024))
            nextVersion += 1
            let put = try await client.putFile(file, lock: lockID, content: content, at: base)
            tally.record("PutFile", put.status)
            expectConflict(put, "PutFile", file, allowUnlocked: true)
        case 1:
            let refresh = try await client.lockOperation(WOPIOverride.refreshLock, file, lock: lockID, at: base)
            tally.record("RefreshLock", refresh.status)
            expectConflict(refresh, "RefreshLock", file, allowUnlocked: true)
        default:
            let unlock = try await client.lockOperation(WOPIOverride.unlock, file, lock: lockID, at: base)
            tally.record("Unlock", unlock.status)
            expectConflict(unlock, "Unlock", file, allowUnlocked: true)
        }
    }

    /// A `409` whose `X-WOPI-Lock` is another client's lock, or empty when `allowUnlocked`.
    private func expectConflict(_ reply: WOPIClient.Reply, _ operation: String, _ file: WOPIFile, allowUnlocked: Bool) {
        let current = reply.header(WOPIHeader.lock)
        let valid =
            reply.status == 409
            && (current.map { ($0.isEmpty && allowUnlocked) || ($0.hasPrefix(Self.lockPrefix) && $0 != lockID) }
                ?? false)
        if !valid {
            tally.violation(
                "\(operation) \(file.index) by client \(index) without its lock: \(reply.status) [\(current ?? "-")]")
        }
    }
}
