import Foundation
import Logging
import Testing
import WOPIStorage
import WOPITestSupport

@testable import FUSEMount

extension RealMountTests {
    /// Mount, run, unmount from every direction; lock refresh.
    @Suite struct LifecycleTests {
        @Test func runReturnsWhenUnmountedFromOutside() async throws {
            try await withMount { fixture in
                let runner = Task { try await fixture.mount.run() }
                try await fixture.seed("x.txt", "x")
                #expect(try await blocking { try POSIX.readFile(fixture.path("x.txt")) } == Array("x".utf8))
                let fusermount = try await runCommand(["fusermount3", "-u", fixture.mountPoint])
                #expect(fusermount.status == 0, "\(fusermount.errorOutput)")
                try await withDeadline(.seconds(10)) { _ in try await runner.value }
                #expect(fixture.mount.isMounted == false)
                #expect(try fixture.isKernelMounted() == false)
                await #expect(throws: FUSEMountError.self) { try await fixture.mount.mount() }
            }
        }

        @Test func cancellingRunUnmounts() async throws {
            try await withMount { fixture in
                let runner = Task { try await fixture.mount.run() }
                try await Task.sleep(for: .milliseconds(100))
                runner.cancel()
                try await withDeadline(.seconds(10)) { _ in try await runner.value }
                #expect(try fixture.isKernelMounted() == false)
            }
        }

        @Test func concurrentUnmountsAllSucceed() async throws {
            try await withMount { fixture in
                try await fixture.seed("y.txt", "y")
                async let first: Void = fixture.mount.unmount()
                async let second: Void = fixture.mount.unmount()
                _ = try await (first, second)
                try await fixture.mount.unmount()
                #expect(try fixture.isKernelMounted() == false)
            }
        }

        @Test func lockIsRefreshedWhileTheFileStaysOpen() async throws {
            let clock = TestClock()
            try await withMount(
                clock: clock,
                configure: {
                    $0.lockDuration = .milliseconds(800)
                    $0.lockRefreshInterval = .milliseconds(150)
                }
            ) { fixture in
                let file = try await fixture.seed("long.txt", "edit me for a while")
                let fd = try await blocking { open(fixture.path("long.txt"), O_RDWR | O_CLOEXEC) }
                try #require(fd >= 0)
                let first = try #require(await fixture.locks.lock(on: file.id))
                // 1.5 s on the mount's and the lock store's clock, well past the 0.8 s lifetime, in refresh-interval
                // steps; each waits until the refresher is the one sleeper, due one interval on.
                for _ in 0..<10 {
                    let asleep = await fixture.eventually {
                        clock.deadlines == [clock.now.advanced(by: .milliseconds(150))]
                    }
                    try #require(asleep, "the lock refresher is waiting for its next refresh")
                    clock.advance(by: .milliseconds(150))
                }
                let refreshed = await fixture.eventually {
                    (await fixture.locks.lock(on: file.id))?.expiresAt ?? .distantPast
                        >= clock.date.addingTimeInterval(0.8)
                }
                #expect(refreshed, "the last refresh landed")
                let later = try #require(await fixture.locks.lock(on: file.id), "still locked after the first expiry")
                #expect(later.id == first.id)
                #expect(later.expiresAt > first.expiresAt)
                #expect(try await blocking { close(fd) } == 0)
                #expect(await fixture.eventually { await fixture.locks.lock(on: file.id) == nil })
            }
        }

        @Test func mountPointMustExist() async throws {
            let mount = FUSEMount(
                backend: InMemoryStorage(), lockStore: InMemoryLockStore(), root: .random(),
                configuration: .init(mountPoint: "/nonexistent/\(UUID().uuidString)"))
            await #expect {
                try await mount.mount()
            } throws: { error in
                (error as? FUSEMountError)?.code == .invalidMountPoint
            }
            #expect(mount.isMounted == false)
        }
    }
}
