import Foundation
import Testing
import WOPIStorage

@testable import FUSEMount

extension RealMountTests {
    /// A hung backend, and a backend that cannot move between containers.
    @Suite struct ResilienceTests {
        @Test func hungBackendTimesOutStaysResponsiveAndUnmounts() async throws {
            let hang = HangSwitch()
            defer { hang.resume() }
            try await withMount(
                backend: { base in InterceptingStorage(base: base) { _ in await hang.gate() } },
                configure: {
                    $0.operationTimeout = .seconds(1)
                    $0.attributeCacheTTL = .zero
                    $0.directoryCacheTTL = .zero
                }
            ) { fixture in
                try await fixture.seed("a.txt", "alpha")
                try await fixture.seed("b.txt", "beta")
                let dir = fixture.path("")
                // A file open for writing with local changes that cannot be uploaded once the backend hangs.
                let fd = try await blocking { open(dir + "/b.txt", O_WRONLY | O_APPEND | O_CLOEXEC) }
                try #require(fd >= 0)
                let written = try await blocking {
                    Array("+local".utf8).withUnsafeBytes { write(fd, $0.baseAddress!, 6) }
                }
                #expect(written == 6)

                hang.isHanging = true
                let hungResult = try await blocking { () -> (Int32, Duration, Int32, Duration) in
                    let clock = ContinuousClock()
                    var info = stat()
                    var code: Int32 = 0
                    let statTime = clock.measure { code = stat(dir + "/a.txt", &info) == 0 ? 0 : errno }
                    var fs = statvfs()
                    var statfsCode: Int32 = 0
                    let statfsTime = clock.measure { statfsCode = statvfs(dir, &fs) == 0 ? 0 : errno }
                    return (code, statTime, statfsCode, statfsTime)
                }
                #expect(hungResult.0 == ETIMEDOUT || hungResult.0 == EIO, "errno \(hungResult.0)")
                #expect(hungResult.1 < .seconds(5), "a hung backend call fails within the timeout (\(hungResult.1))")
                #expect(hungResult.2 == 0 && hungResult.3 < .seconds(1), "the mount stays responsive")
                #expect(hang.parkedCount > 0, "the backend was really hung")

                // Recovery: new calls work once the backend answers again (the parked ones stay parked).
                hang.isHanging = false
                #expect(try await blocking { try POSIX.readFile(dir + "/a.txt") } == Array("alpha".utf8))

                // Unmounting while the backend hangs again finishes in bounded time and keeps unsaved content.
                hang.isHanging = true
                let clock = ContinuousClock()
                let elapsed = try await clock.measure { try await fixture.mount.unmount() }
                #expect(elapsed < .seconds(10), "unmount took \(elapsed)")
                #expect(try fixture.isKernelMounted() == false)
                #expect(fixture.mount.isMounted == false)
                _ = try await blocking { close(fd) }

                let unsavedDirectory = fixture.cacheDirectory + "/unsaved"
                let unsaved = try FileManager.default.contentsOfDirectory(atPath: unsavedDirectory)
                #expect(unsaved.count == 1 && unsaved.first?.hasSuffix("b.txt") == true, "\(unsaved)")
                if let name = unsaved.first {
                    let kept = try Data(contentsOf: URL(fileURLWithPath: unsavedDirectory + "/" + name))
                    #expect(Array(kept) == Array("beta+local".utf8))
                }
                let bFile = try #require(try await fixture.item(at: "b.txt"))
                #expect(
                    await fixture.locks.lock(on: bFile.id) == nil, "the lock is released (the lock store still works)")
            }
        }

        @Test func crossContainerMoveFallsBackToCopy() async throws {
            try await withMount(
                backend: { base in
                    InterceptingStorage(base: base) { call in
                        guard case .move(let id, let target) = call, try await base.item(id).parentID != target else {
                            return
                        }
                        throw StorageError(.crossContainerMove, "This backend cannot move between containers.")
                    }
                }
            ) { fixture in
                let dir = fixture.path("")
                #expect(try await runCommand(["mkdir", "-p", dir + "/from/tree", dir + "/to"]).status == 0)
                #expect(try await runCommand(["sh", "-c", "echo payload > '\(dir)/from/file.txt'"]).status == 0)
                #expect(try await runCommand(["sh", "-c", "echo nested > '\(dir)/from/tree/leaf.txt'"]).status == 0)

                let direct = try await blocking {
                    rename(dir + "/from/file.txt", dir + "/to/file.txt") == 0 ? 0 : errno
                }
                #expect(direct == EXDEV)

                let mv = try await runCommand(["mv", dir + "/from/file.txt", dir + "/from/tree", dir + "/to/"])
                #expect(mv.status == 0, "mv: \(mv.errorOutput)")
                #expect(try await runCommand(["cat", dir + "/to/file.txt"]).output == "payload\n")
                #expect(try await runCommand(["cat", dir + "/to/tree/leaf.txt"]).output == "nested\n")
                #expect(try await fixture.item(at: "from/file.txt") == nil)
                #expect(try await fixture.item(at: "from/tree") == nil)

                // Renames within one container still work, also over an existing file.
                #expect(try await runCommand(["mv", dir + "/to/file.txt", dir + "/to/renamed.txt"]).status == 0)
                #expect(try await runCommand(["sh", "-c", "echo other > '\(dir)/to/other.txt'"]).status == 0)
                #expect(try await runCommand(["mv", dir + "/to/other.txt", dir + "/to/renamed.txt"]).status == 0)
                #expect(try await runCommand(["cat", dir + "/to/renamed.txt"]).output == "other\n")
            }
        }
    }
}
