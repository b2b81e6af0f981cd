import Foundation
import Testing
import WOPITestSupport

extension RealMountTests {
    /// The whole stack as a user runs it: `wopi-host serve`, `wopi login`, `wopi mount` (FUSE over RemoteStorage),
    /// shell tools on the mount, and the WOPI view of the same files through `wopi`.
    @Suite struct RemoteMountTests {
        /// A signed-in `wopi` configuration against a fresh host, and a `wopi mount` of it.
        struct Stack {
            let directory: TemporaryDirectory
            let host: HostProcess
            let environment: [String: String]
            let mountPoint: String
            let mount: Process

            /// Starts the stack; with `incremental` the host has co-authoring on, so CSPP Plus incremental transfer
            /// (which the mount then uses), and without it the host offers no incremental transfer at all (whole
            /// files); with a `proxy`, every client reaches the host through it.
            static func start(incremental: Bool = true, proxy: CountingProxy? = nil) async throws -> Stack {
                let directory = try TemporaryDirectory()
                let host = try HostProcess(
                    dataDirectory: directory.appending("data"),
                    extraArguments: (incremental ? HostProcess.coauthoringArguments : HostProcess.wholeFileArguments)
                        + (proxy.map { ["--public-url", $0.url] } ?? []))
                var url = try await host.waitUntilListening()
                if let proxy, let port = URLComponents(string: url)?.port {
                    proxy.forward(to: port)
                    url = proxy.url
                }
                let browser = directory.appending("browser.sh")
                try ScriptedBrowser.signingIn(user: "demo", password: "demo", at: browser)
                let environment = [
                    "XDG_CONFIG_HOME": directory.appending("config").path,
                    "XDG_CACHE_HOME": directory.appending("cache").path, "BROWSER": ScriptedBrowser.command(browser),
                ]
                let login = try await ChildProcess.run(
                    ChildProcess.built("wopi"), ["login", url + "/wopibootstrapper"], environment: environment)
                try #require(login.status == 0, "wopi login: \(login.error)")

                let mountPoint = directory.appending("mnt").path
                try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
                let mount = Process()
                mount.executableURL = ChildProcess.built("wopi")
                mount.arguments = ["mount", mountPoint, "--timeout", "5"]
                mount.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                mount.standardOutput = FileHandle.nullDevice
                mount.standardError = try FileHandle(forWritingTo: Self.emptyFile(directory.appending("mount.log")))
                mount.standardInput = FileHandle.nullDevice
                try mount.run()
                ChildProcesses.register(mount.processIdentifier)
                let stack = Stack(
                    directory: directory, host: host, environment: environment, mountPoint: mountPoint, mount: mount)
                let deadline = ContinuousClock.now + .seconds(30)
                while !(try stack.isMounted()) {
                    guard mount.isRunning, ContinuousClock.now < deadline else {
                        throw HostProcessError("wopi mount did not mount: \(stack.mountLog)")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                return stack
            }

            static func emptyFile(_ url: URL) -> URL {
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                return url
            }

            var mountLog: String { (try? String(contentsOf: directory.appending("mount.log"), encoding: .utf8)) ?? "" }

            func isMounted() throws -> Bool {
                try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8).contains(" \(mountPoint) ")
            }

            /// Runs `script` in `sh` with `$M` set to the mount point.
            func shell(_ script: String, timeout: Duration = .seconds(60)) async throws -> ChildProcess.Result {
                try await ChildProcess.run(
                    URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: ["M": mountPoint], timeout: timeout)
            }

            /// Runs `wopi` against the host directly (not through the mount).
            func wopi(_ arguments: String...) async throws -> ChildProcess.Result {
                try await ChildProcess.run(ChildProcess.built("wopi"), arguments, environment: environment)
            }

            func stop() async {
                if mount.isRunning { kill(mount.processIdentifier, SIGTERM) }
                let deadline = ContinuousClock.now + .seconds(30)
                while mount.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
                if mount.isRunning { kill(mount.processIdentifier, SIGKILL) }
                if (try? isMounted()) == true {
                    _ = try? await ChildProcess.run(URL(fileURLWithPath: "/bin/fusermount3"), ["-uz", mountPoint])
                }
                ChildProcesses.unregister(mount.processIdentifier)
                await host.stop()
                directory.remove()
            }
        }

        /// The `id` of `wopi stat --json` output.
        static func id(_ json: String) -> String? {
            (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["id"] as? String
        }

        @Test(
            "ls, cat, mkdir, cp, mv, sed -i, rm and rmdir on the mount are what the host has; SIGTERM unmounts",
            arguments: [true, false])
        func shellToolsRoundTrip(incremental: Bool) async throws {
            let stack = try await Stack.start(incremental: incremental)
            do {
                let listing = try await stack.shell("ls \"$M\"")
                #expect(listing.output.split(separator: "\n").contains("Welcome.docx"))
                let notes = try await stack.shell("cat \"$M/Notes.txt\"")
                let direct = try await stack.wopi("get", "Notes.txt", "-")
                #expect(notes.status == 0 && notes.output == direct.output)

                let local = stack.directory.appending("local.bin")
                try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: local)
                let copy = try await stack.shell(
                    "mkdir \"$M/Reports\" && cp '\(local.path)' \"$M/Reports/a.bin\" && mv \"$M/Reports/a.bin\" \"$M/Reports/b.bin\""
                )
                #expect(copy.status == 0, "\(copy.error)")
                let fetched = stack.directory.appending("fetched.bin")
                #expect(try await stack.wopi("get", "Reports/b.bin", fetched.path).status == 0)
                #expect(try Data(contentsOf: fetched) == Data(contentsOf: local))

                // An editor's atomic save: sed -i writes a temporary file beside it and renames it over the file.
                #expect(try await stack.shell("echo 'first line' > \"$M/Reports/plan.txt\"").status == 0)
                let before = try await stack.wopi("stat", "Reports/plan.txt", "--json").output
                let edit = try await stack.shell("sed -i 's/first/edited/' \"$M/Reports/plan.txt\"")
                #expect(edit.status == 0, "\(edit.error)")
                #expect(try await stack.wopi("get", "Reports/plan.txt", "-").output == "edited line\n")
                let after = try await stack.wopi("stat", "Reports/plan.txt", "--json").output
                #expect(Self.id(before) != nil && Self.id(after) == Self.id(before), "the saved file keeps its WOPI ID")

                let removal = try await stack.shell(
                    "rm \"$M/Reports/b.bin\" \"$M/Reports/plan.txt\" && rmdir \"$M/Reports\"")
                #expect(removal.status == 0, "\(removal.error)")
                #expect(try await stack.wopi("stat", "Reports").status == 4)
            } catch {
                await stack.stop()
                throw error
            }
            kill(stack.mount.processIdentifier, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(30)
            while stack.mount.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(!stack.mount.isRunning && stack.mount.terminationStatus == 0, "\(stack.mountLog)")
            #expect(try !stack.isMounted())
            await stack.stop()
        }

        @Test("a file open for writing in the mount is locked for WOPI clients until it is closed and saved")
        func openForWritingLocksTheFile() async throws {
            let stack = try await Stack.start()
            defer { Task { await stack.stop() } }
            // The writer holds the file open until the test has looked: `opened` says the open (and so the lock)
            // is done, `release` lets it write and close.
            let opened = stack.directory.appending("opened").path
            let release = stack.directory.appending("release").path
            let writer = Task {
                try await stack.shell(
                    "exec 3>>\"$M/Notes.txt\"; touch '\(opened)'; while [ ! -e '\(release)' ]; do sleep 0.05; done; "
                        + "echo 'appended in the mount' >&3")
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while !FileManager.default.fileExists(atPath: opened), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try #require(FileManager.default.fileExists(atPath: opened), "the writer opened the file in the mount")
            let during = try await stack.wopi("stat", "Notes.txt", "--json")
            let lock = (try JSONSerialization.jsonObject(with: Data(during.output.utf8)) as? [String: Any])?["lock"]
            #expect((lock as? String)?.isEmpty == false, "the mount must hold a WOPI lock: \(during.output)")
            let office = try await stack.wopi("lock", "Notes.txt")
            #expect(office.status == 5, "another client's Lock is a conflict while the mount holds the file")
            _ = FileManager.default.createFile(atPath: release, contents: nil)
            #expect(try await writer.value.status == 0)
            let after = try await stack.wopi("stat", "Notes.txt", "--json")
            #expect(after.output.contains(#""lock":"""#))
            #expect(try await stack.wopi("get", "Notes.txt", "-").output.hasSuffix("appended in the mount\n"))
            await stack.stop()
        }

        @Test("a host killed during a write leaves the mount responsive: calls fail within the timeout, none hang")
        func killedHostDuringAWrite() async throws {
            let stack = try await Stack.start()
            let writer = Task {
                try await stack.shell(
                    "dd if=/dev/zero of=\"$M/big.bin\" bs=1M count=64 status=none", timeout: .seconds(120))
            }
            try await Task.sleep(for: .milliseconds(300))
            await stack.host.stop(signal: SIGKILL)
            let write = try await writer.value
            let start = ContinuousClock.now
            let listing = try await stack.shell("ls \"$M\" >/dev/null; ls \"$M/Documents\" >/dev/null; echo done")
            #expect(listing.output.hasSuffix("done\n"))
            #expect(ContinuousClock.now - start < .seconds(30), "ls on a mount whose host is gone must not hang")
            #expect(stack.mount.isRunning, "the mount process survives its host: \(stack.mountLog)")
            _ = write  // the write itself may succeed locally or fail with EIO; either is fine, hanging is not.
            await stack.stop()
        }
    }
}
