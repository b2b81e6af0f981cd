import Foundation
import Testing
import WOPIStorage
import WOPITestSupport

@testable import FUSEMount

/// The names, editors and tools people use in a mounted folder (issue 16 item 7, issue 11 item 5).
extension RealMountTests {
    /// Over a local backend (`InMemoryStorage`, as `wopi-host mount` uses its stores).
    @Suite struct LocalEditorsAndGitTests {
        /// Runs `script` in `sh` in the mount point and requires it to succeed.
        @discardableResult
        static func shell(_ script: String, in fixture: MountFixture) async throws -> CommandResult {
            let result = try await runCommand(["sh", "-c", "set -e; " + script], in: fixture.mountPoint)
            #expect(result.status == 0, "\(script)\n\(result.output)\(result.errorOutput)")
            return result
        }

        @Test func namesEditorsVimLockFilesAndGit() async throws {
            try await withMount { fixture in
                try await Self.shell(Names.script, in: fixture)
                for name in Names.all {
                    #expect(try await fixture.item(at: name) != nil, "\(name) in the backend")
                }
                // An editor's save: a dot-named temporary file renamed over the original.
                try await Self.shell(Names.editorSave, in: fixture)
                let saved = try #require(try await fixture.item(at: "notes.txt"))
                #expect(String(decoding: try await fixture.content(of: saved.id), as: UTF8.self) == "second\n")
                // vim writes a .swp file beside the file while editing, then removes it.
                try await Self.shell(
                    "vim -es -u NONE -i NONE -c 'set swapfile directory=.' -c 'normal! Ovim line' -c 'wq' notes.txt",
                    in: fixture)
                #expect(try await runCommand(["cat", fixture.path("notes.txt")]).output == "vim line\nsecond\n")
                try await Self.shell(Names.lockFile, in: fixture)
                let git = try await Self.shell("mkdir repo; cd repo; " + Names.git, in: fixture)
                #expect(git.output.contains("nothing to commit"), "\(git.output)")
            }
        }

        @Test func copiesAndRsyncKeepTimesSoASecondRsyncTransfersNothing() async throws {
            try await withMount { fixture in
                let tree = fixture.directory + "/tree"
                try await Self.shell(
                    "mkdir -p '\(tree)'; for d in 0 1 2 3 4 5 6 7 8 9; do mkdir '\(tree)'/d$d;"
                        + " for f in $(seq 1 100); do echo \"file $d $f\" > '\(tree)'/d$d/f$f.txt; done; done",
                    in: fixture)
                try await Self.shell("cp -a '\(tree)' copied && diff -r '\(tree)' copied", in: fixture)
                let first = try await Self.shell(
                    "rsync -a --stats '\(tree)/' synced/ && diff -r '\(tree)' synced", in: fixture)
                #expect(first.output.contains("Number of regular files transferred: 1,000"), "\(first.output)")
                let second = try await Self.shell("rsync -a --stats '\(tree)/' synced/", in: fixture)
                #expect(second.output.contains("Number of regular files transferred: 0"), "\(second.output)")
                // cp -a kept the times too.
                let times = try await Self.shell(
                    "stat -c %Y '\(tree)/d3/f7.txt' copied/d3/f7.txt synced/d3/f7.txt | uniq | wc -l", in: fixture)
                #expect(times.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            }
        }

        @Test func touchKeepsTimesLinksGetTheConventionalErrorsOwnersAndModesAreKept() async throws {
            try await withMount { fixture in
                try await Self.shell(Names.touch, in: fixture)
                let refused = try await runCommand(
                    ["sh", "-c", Names.refusals], in: fixture.mountPoint)
                #expect(refused.output == Names.refusalsOutput, "\(refused.errorOutput)")
            }
        }
    }

    /// The same through `wopi mount` against `wopi-host serve` (FUSE over WOPI).
    @Suite struct RemoteEditorsAndGitTests {
        @Test("names, an editor's dot-file save, LibreOffice lock files, git and touch -d through wopi mount")
        func namesEditorsAndGitOverWOPI() async throws {
            let stack = try await RemoteMountTests.Stack.start()
            do {
                func shell(_ script: String) async throws -> ChildProcess.Result {
                    let result = try await stack.shell("set -e; cd \"$M\"; " + script, timeout: .seconds(120))
                    #expect(result.status == 0, "\(script)\n\(result.output)\(result.error)\n\(stack.mountLog)")
                    return result
                }
                _ = try await shell("mkdir work; cd work; " + Names.script)
                for name in Names.all {
                    let stat = try await stack.wopi("stat", "work/" + name)
                    #expect(stat.status == 0, "wopi stat work/\(name): \(stat.error)")
                }
                _ = try await shell("cd work; " + Names.editorSave)
                #expect(try await stack.wopi("get", "work/notes.txt", "-").output == "second\n")
                _ = try await shell("cd work; " + Names.lockFile)
                let git = try await shell("mkdir repo; cd repo; " + Names.git)
                #expect(git.output.contains("nothing to commit"), "\(git.output)")
                _ = try await shell("cd work; " + Names.touch)
                let refused = try await stack.shell("cd \"$M/work\"; " + Names.refusals)
                #expect(refused.output == Names.refusalsOutput, "\(refused.error)")
            } catch {
                await stack.stop()
                throw error
            }
            await stack.stop()
        }
    }
}

/// The shell scripts both suites run in a folder of the mount.
enum Names {
    /// Dot names and `# % [ ] { } ^` and the backtick.
    static let all = [
        ".gitignore", "Notes #3.txt", "100% [final].txt", "{draft}^2.txt", "`quoted`.md", ".config [x]",
    ]

    static let script = """
        echo ignored > .gitignore
        echo three > 'Notes #3.txt'
        echo final > '100% [final].txt'
        echo draft > '{draft}^2.txt'
        echo quoted > '`quoted`.md'
        mkdir '.config [x]'
        test "$(cat 'Notes #3.txt')" = three
        test "$(cat .gitignore)" = ignored
        mv '100% [final].txt' '100% [final].txt.tmp' && mv '100% [final].txt.tmp' '100% [final].txt'
        ls -A | grep -qx '{draft}^2.txt'
        """

    /// What editors do on save: write `.name.tmp`, then rename it over `name`.
    static let editorSave = """
        echo first > notes.txt
        echo second > .notes.txt.tmp
        mv .notes.txt.tmp notes.txt
        test "$(cat notes.txt)" = second
        test ! -e .notes.txt.tmp
        """

    /// LibreOffice's lock file beside a document while it is open.
    static let lockFile = """
        echo doc > Report.odt
        printf ',tester,host,24.11.2026 08:00,tester;' > '.~lock.Report.odt#'
        test -s '.~lock.Report.odt#'
        rm '.~lock.Report.odt#'
        test ! -e '.~lock.Report.odt#'
        """

    /// `git init`, `add`, `commit` and `status` in the folder.
    static let git = """
        git init -q .
        git config user.email t@example.com
        git config user.name Tester
        echo '*.tmp' > .gitignore
        echo hello > hello.txt
        git add .gitignore hello.txt
        git commit -q -m first
        echo more >> hello.txt
        git commit -q -am second
        git log --oneline | wc -l | grep -qx 2
        git status
        """

    /// Times set by `touch -d` (and so `utimensat`) are what `stat` reports afterwards.
    static let touch = """
        echo t > timed.txt
        touch -d '2021-03-04 05:06:07 UTC' timed.txt
        test "$(stat -c %Y timed.txt)" = 1614834367
        mkdir timed-dir
        touch -d '2020-01-02 03:04:05 UTC' timed-dir
        test "$(stat -c %Y timed-dir)" = 1577934245
        """

    /// Links, owners and modes: links print their error name; `chown` to another owner works for root (the
    /// mount keeps the owner) and is `EPERM` for anyone else (the kernel's check); `chmod` is kept.
    static let refusals = """
        echo x > target.txt
        err() { case "$1" in *"not permitted"*) echo "$2 EPERM";; *"not supported"*) echo "$2 ENOTSUP";; *) echo "$2 other: $1";; esac; }
        err "$(ln -s target.txt sym 2>&1)" symlink
        err "$(ln target.txt hard 2>&1)" link
        if [ "$(id -u)" = 0 ]; then chown 12345:12345 target.txt && echo "chown $(stat -c %u:%g target.txt)"
        else err "$(chown 12345:12345 target.txt 2>&1)" chown; fi
        chmod 0604 target.txt && echo "chmod $(stat -c %a target.txt)"
        """

    /// What ``refusals`` prints: root may give a file away, anyone else may not.
    static let refusalsOutput =
        "symlink EPERM\nlink EPERM\n" + (getuid() == 0 ? "chown 12345:12345" : "chown EPERM") + "\nchmod 604\n"
}
