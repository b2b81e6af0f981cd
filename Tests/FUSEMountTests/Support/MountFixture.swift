import Foundation
import Logging
import NIOCore
import WOPIStorage
import WOPITestSupport

@testable import FUSEMount

/// A real mount of an ``InMemoryStorage`` (optionally wrapped) in a fresh temporary directory.
///
/// Use ``withMount(backend:configure:_:)``: it always unmounts (and, as a safety net, runs
/// `fusermount3 -u -z`) and deletes the directory, also when the test fails.
struct MountFixture: Sendable {
    let storage: InMemoryStorage
    let locks: InMemoryLockStore
    let root: ItemID
    let mount: FUSEMount
    let directory: String
    let mountPoint: String
    let cacheDirectory: String

    /// The path of `relative` inside the mount.
    func path(_ relative: String) -> String {
        relative.isEmpty ? mountPoint : "\(mountPoint)/\(relative)"
    }

    /// The backend item at a `/`-separated path below the root, or `nil`.
    func item(at relative: String) async throws -> StorageItem? {
        var current = StorageItem.container(try await storage.container(root))
        for name in relative.split(separator: "/") {
            guard let next = try await storage.child(named: String(name), in: current.id) else { return nil }
            current = next
        }
        return current
    }

    /// The whole content of a backend file.
    func content(of id: ItemID) async throws -> [UInt8] {
        let buffer = try await storage.readFile(id).body.collect(upTo: 64 << 20)
        return Array(buffer.readableBytesView)
    }

    /// Creates a file directly in the backend (as another client would).
    @discardableResult
    func seed(_ name: String, _ text: String, in parent: ItemID? = nil) async throws -> FileMetadata {
        try await storage.createFile(
            named: name, in: parent ?? root, content: ByteStream(buffer: ByteBuffer(string: text)), overwrite: false)
    }

    /// Waits (``Polling/patience`` at most) until `condition` holds; returns whether it did.
    func eventually(_ condition: @Sendable () async throws -> Bool) async -> Bool {
        (try? await Polling.until(condition)) ?? false
    }

    /// Whether the mount point is a mount right now (per /proc/self/mountinfo).
    func isKernelMounted() throws -> Bool {
        let table = try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
        return table.split(separator: "\n").contains {
            $0.split(separator: " ").dropFirst(4).first == Substring(mountPoint)
        }
    }
}

/// Mounts, runs `body`, and always cleans up. With a `clock`, the mount's deadlines and lock refreshes and the lock
/// store's expiry follow it.
func withMount(
    backend wrap: @Sendable (InMemoryStorage) -> any StorageBackend = { $0 },
    clock: TestClock? = nil,
    configure: (inout FUSEMount.Configuration) -> Void = { _ in },
    _ body: (MountFixture) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("fusemount-test-\(UUID().uuidString.prefix(8))").path
    let mountPoint = directory + "/mnt"
    let cacheDirectory = directory + "/cache"
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    let storage = InMemoryStorage()
    let locks = clock.map { InMemoryLockStore(now: $0.dateSource) } ?? InMemoryLockStore()
    let root = await storage.rootContainer(forUser: "tester").id
    var configuration = FUSEMount.Configuration(
        mountPoint: mountPoint, operationTimeout: .seconds(10), cacheDirectory: cacheDirectory,
        lockHolder: "fuse-test")
    if let clock {
        configuration.clock = clock
        configuration.now = clock.dateSource
    }
    configure(&configuration)
    var logger = Logger(label: "FUSEMountTests")
    logger.logLevel = ProcessInfo.processInfo.environment["FUSE_TEST_LOG"] == nil ? .warning : .debug
    let mount = FUSEMount(
        backend: wrap(storage), lockStore: locks, root: root, configuration: configuration, logger: logger)
    let fixture = MountFixture(
        storage: storage, locks: locks, root: root, mount: mount, directory: directory, mountPoint: mountPoint,
        cacheDirectory: cacheDirectory)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    do {
        try await mount.mount()
        try await body(fixture)
    } catch {
        await cleanUp(fixture)
        throw error
    }
    await cleanUp(fixture)
}

private func cleanUp(_ fixture: MountFixture) async {
    // Bounded: never let a broken unmount hang the test run.
    _ = try? await withDeadline(.seconds(60)) { _ in try await fixture.mount.unmount() }
    if (try? fixture.isKernelMounted()) == true {
        print("⚠️ FUSEMountTests: unmount() left \(fixture.mountPoint) mounted; forcing fusermount3 -u -z")
        _ = try? await runCommand(["fusermount3", "-u", "-z", fixture.mountPoint])
    }
}
