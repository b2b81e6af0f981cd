import Foundation
import Testing
import WOPIStorage
import WOPITestSupport

@testable import FUSEMount

extension RealMountTests {
    /// Real mounts over `InMemoryStorage`, driven by shell tools and POSIX calls.
    @Suite struct RoundTripTests {
        @Test func shellToolsRoundTrip() async throws {
            try await withMount { fixture in
                let local = fixture.directory + "/local.bin"
                var generator = SeededGenerator(seed: 7)
                let payload = (0..<(700 * 1024 + 13)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                try Data(payload).write(to: URL(fileURLWithPath: local))

                #expect(try await runCommand(["mkdir", "-p", fixture.path("docs/sub")]).status == 0)
                #expect(try await runCommand(["cp", local, fixture.path("docs/data.bin")]).status == 0)
                let catResult = try await runCommand(["cmp", local, fixture.path("docs/data.bin")])
                #expect(catResult.status == 0, "cmp: \(catResult.output) \(catResult.errorOutput)")

                let stored = try #require(try await fixture.item(at: "docs/data.bin"))
                #expect(try await fixture.content(of: stored.id) == payload)

                let listing = try await runCommand(["ls", "-1", fixture.path("docs")])
                #expect(listing.output.split(separator: "\n").sorted() == ["data.bin", "sub"])

                #expect(
                    try await runCommand(["mv", fixture.path("docs/data.bin"), fixture.path("docs/renamed.bin")]).status
                        == 0)
                #expect(
                    try await runCommand(["mv", fixture.path("docs/renamed.bin"), fixture.path("docs/sub/")]).status
                        == 0)
                let moved = try #require(try await fixture.item(at: "docs/sub/renamed.bin"))
                #expect(moved.id == stored.id, "rename and move keep the item ID")
                #expect(try await fixture.item(at: "docs/data.bin") == nil)
                #expect(try await runCommand(["cat", fixture.path("docs/sub/renamed.bin")]).output.utf8.count > 0)

                let rmdir = try await runCommand(["rmdir", fixture.path("docs/sub")])
                #expect(rmdir.status != 0 && rmdir.errorOutput.contains("not empty"), "\(rmdir.errorOutput)")
                #expect(try await runCommand(["rm", fixture.path("docs/sub/renamed.bin")]).status == 0)
                #expect(try await runCommand(["rmdir", fixture.path("docs/sub")]).status == 0)
                #expect(try await fixture.item(at: "docs/sub") == nil)
            }
        }

        @Test func treeCopiesArchivesAndEditorsSaveIntact() async throws {
            try await withMount { fixture in
                let local = fixture.directory + "/tree"
                try FileManager.default.createDirectory(
                    atPath: local + "/sub/deeper", withIntermediateDirectories: true)
                try "alpha\nbeta\n".write(toFile: local + "/a.txt", atomically: false, encoding: .utf8)
                try String(repeating: "0123456789", count: 40_000).write(
                    toFile: local + "/sub/big.txt", atomically: false, encoding: .utf8)
                try "".write(toFile: local + "/sub/deeper/empty", atomically: false, encoding: .utf8)
                let mounted = fixture.path("tree")

                let copy = try await runCommand(["cp", "-a", local, mounted])
                #expect(copy.status == 0, "cp -a: \(copy.errorOutput)")
                let diff = try await runCommand(["diff", "-r", local, mounted])
                #expect(diff.status == 0, "diff: \(diff.output)")

                let archive = fixture.directory + "/tree.tar"
                #expect(try await runCommand(["tar", "-C", fixture.directory, "-cf", archive, "tree"]).status == 0)
                try FileManager.default.createDirectory(
                    atPath: fixture.path("unpacked"), withIntermediateDirectories: false)
                let untar = try await runCommand(["tar", "-C", fixture.path("unpacked"), "-xf", archive])
                #expect(untar.status == 0, "tar: \(untar.errorOutput)")
                #expect(try await runCommand(["diff", "-r", local, fixture.path("unpacked/tree")]).status == 0)

                // sed -i writes a temporary file and renames it over the original.
                #expect(try await runCommand(["sed", "-i", "s/alpha/omega/", mounted + "/a.txt"]).status == 0)
                // vim with its swap file and write-backup, as a user would run it.
                let vim = try await runCommand([
                    "vim", "-u", "NONE", "-i", "NONE", "-E", "-s", "-c", "%s/beta/vim/", "-c", "wq", mounted + "/a.txt",
                ])
                #expect(vim.status == 0, "vim: \(vim.errorOutput)")
                #expect(try await runCommand(["cat", mounted + "/a.txt"]).output == "omega\nvim\n")
                let names = try await fixture.storage.children(of: try #require(try await fixture.item(at: "tree")).id)
                #expect(names.map(\.name).sorted() == ["a.txt", "sub"], "no swap, backup or temporary files remain")
            }
        }

        @Test func posixAttributesAndErrors() async throws {
            try await withMount { fixture in
                try await fixture.seed("hello.txt", "hello world")
                let dir = fixture.path("")
                let results = try await blocking { () -> [String: Int32] in
                    var results: [String: Int32] = [:]
                    var info = stat()
                    results["stat"] = stat(dir + "/hello.txt", &info) == 0 ? 0 : errno
                    results["size"] = Int32(info.st_size)
                    results["mode"] = Int32(info.st_mode & 0o7777)
                    results["isFile"] = (info.st_mode & S_IFMT) == S_IFREG ? 1 : 0
                    results["nlink"] = Int32(info.st_nlink)
                    results["missing"] = stat(dir + "/nope.txt", &info) == 0 ? 0 : errno
                    results["mkdir"] = mkdir(dir + "/folder", 0o755) == 0 ? 0 : errno
                    results["mkdirAgain"] = mkdir(dir + "/folder", 0o755) == 0 ? 0 : errno
                    results["dirStat"] = stat(dir + "/folder", &info) == 0 ? 0 : errno
                    results["dirMode"] = Int32(info.st_mode & 0o7777)
                    results["unlinkDir"] = unlink(dir + "/folder") == 0 ? 0 : errno
                    results["rmdirFile"] = rmdir(dir + "/hello.txt") == 0 ? 0 : errno
                    results["badName"] = mkdir(dir + "/trailing ", 0o755) == 0 ? 0 : errno
                    results["longName"] = mkdir(dir + "/" + String(repeating: "x", count: 256), 0o755) == 0 ? 0 : errno
                    results["truncate"] = truncate(dir + "/hello.txt", 5) == 0 ? 0 : errno
                    results["utimens"] = utimes(dir + "/hello.txt", nil) == 0 ? 0 : errno
                    var fs = statvfs()
                    results["statfs"] = statvfs(dir, &fs) == 0 ? 0 : errno
                    results["namemax"] = Int32(fs.f_namemax)
                    results["blocks>0"] = fs.f_blocks > 0 ? 1 : 0
                    return results
                }
                #expect(results["stat"] == 0)
                #expect(results["size"] == 11)
                #expect(results["mode"] == 0o644)
                #expect(results["isFile"] == 1)
                #expect(results["nlink"] == 1)
                #expect(results["missing"] == ENOENT)
                #expect(results["mkdir"] == 0)
                #expect(results["mkdirAgain"] == EEXIST)
                #expect(results["dirStat"] == 0)
                #expect(results["dirMode"] == 0o755)
                #expect(results["unlinkDir"] == EISDIR)
                #expect(results["rmdirFile"] == ENOTDIR)
                #expect(results["badName"] == EINVAL)
                #expect(results["longName"] == ENAMETOOLONG)
                #expect(results["truncate"] == 0)
                #expect(results["utimens"] == 0)
                #expect(results["statfs"] == 0)
                #expect(results["namemax"] == 255)
                #expect(results["blocks>0"] == 1)
                let file = try #require(try await fixture.item(at: "hello.txt"))
                #expect(try await fixture.content(of: file.id) == Array("hello".utf8))
                #expect(await fixture.eventually { await fixture.locks.lock(on: file.id) == nil })
            }
        }

        @Test func shellRedirectionsTruncateAndAppend() async throws {
            try await withMount { fixture in
                let file = fixture.path("notes.txt")
                #expect(try await runCommand(["sh", "-c", "echo one > '\(file)'"]).status == 0)
                #expect(try await runCommand(["sh", "-c", "echo two >> '\(file)'"]).status == 0)
                #expect(try await runCommand(["cat", file]).output == "one\ntwo\n")
                #expect(try await runCommand(["sh", "-c", "echo three > '\(file)'"]).status == 0)
                #expect(try await runCommand(["cat", file]).output == "three\n")
                #expect(try await runCommand(["truncate", "-s", "2", file]).status == 0)
                #expect(try await runCommand(["cat", file]).output == "th")
                let stored = try #require(try await fixture.item(at: "notes.txt"))
                #expect(try await fixture.content(of: stored.id) == Array("th".utf8))
            }
        }

        @Test func readOnlyMountRefusesWrites() async throws {
            try await withMount(configure: { $0.readOnly = true }) { fixture in
                try await fixture.seed("r.txt", "read me")
                let dir = fixture.path("")
                let (created, opened, content) = try await blocking { () -> (Int32, Int32, [UInt8]) in
                    let created = POSIX.writeFile(dir + "/new.txt", [1, 2, 3])
                    let fd = open(dir + "/r.txt", O_WRONLY | O_CLOEXEC)
                    let opened = fd < 0 ? errno : 0
                    if fd >= 0 { close(fd) }
                    return (created, opened, try POSIX.readFile(dir + "/r.txt"))
                }
                #expect(created == EROFS)
                #expect(opened == EROFS)
                #expect(content == Array("read me".utf8))
            }
        }
    }
}
