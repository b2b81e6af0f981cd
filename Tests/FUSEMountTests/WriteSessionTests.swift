import Foundation
import NIOCore
import Testing
import WOPIStorage

@testable import FUSEMount

extension RealMountTests {
    /// Locks, atomic saves and conflicts through a real mount.
    @Suite struct WriteSessionTests {
        @Test func fileOpenForWritingIsLockedUntilClosed() async throws {
            try await withMount { fixture in
                let file = try await fixture.seed("report.txt", "draft")
                let path = fixture.path("report.txt")
                let fd = try await blocking { open(path, O_RDWR | O_CLOEXEC) }
                try #require(fd >= 0)
                let lock = try #require(await fixture.locks.lock(on: file.id), "open for writing takes a lock")
                #expect(lock.id.hasPrefix("fuse-test/"))
                #expect(lock.expiresAt > Date().addingTimeInterval(25 * 60))

                // A second writer in the same mount shares the session instead of failing on its own lock.
                let (secondOpen, appended, closed) = try await blocking { () -> (Int32, Int, Int32) in
                    let second = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
                    let written = Array(" and more".utf8).withUnsafeBytes { write(second, $0.baseAddress!, $0.count) }
                    let closed = close(second) == 0 ? 0 : errno
                    return (second, written, closed)
                }
                #expect(secondOpen >= 0)
                #expect(appended == 9)
                #expect(closed == 0)
                #expect(await fixture.locks.lock(on: file.id)?.id == lock.id, "still locked while fd is open")

                #expect(try await blocking { close(fd) } == 0)
                #expect(await fixture.eventually { await fixture.locks.lock(on: file.id) == nil })
                #expect(try await fixture.content(of: file.id) == Array("draft and more".utf8))
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.cacheDirectory)
                #expect(leftovers.isEmpty, "working copies are deleted after upload: \(leftovers)")
            }
        }

        @Test func fileLockedBySomeoneElseCannotBeOpenedForWriting() async throws {
            try await withMount { fixture in
                let file = try await fixture.seed("shared.docx", "theirs")
                let other = FileLock(id: "office-online-session", expiresAt: Date().addingTimeInterval(600))
                #expect(await fixture.locks.compareAndSwap(file: file.id, expected: nil, new: other) == .swapped)
                let path = fixture.path("shared.docx")
                let (writeError, truncateError, readContent) = try await blocking { () -> (Int32, Int32, [UInt8]) in
                    let fd = open(path, O_WRONLY | O_CLOEXEC)
                    let writeError = fd < 0 ? errno : 0
                    if fd >= 0 { close(fd) }
                    let truncateError = truncate(path, 0) == 0 ? 0 : errno
                    return (writeError, truncateError, try POSIX.readFile(path))
                }
                #expect(writeError == EACCES)
                #expect(truncateError == EACCES)
                #expect(readContent == Array("theirs".utf8), "reading a locked file still works")
                #expect(await fixture.locks.lock(on: file.id) == other, "the other lock is untouched")
                #expect(try await fixture.content(of: file.id) == Array("theirs".utf8))
            }
        }

        @Test func editorAtomicSaveKeepsContent() async throws {
            try await withMount { fixture in
                let original = try await fixture.seed("essay.txt", "version one")
                let directory = fixture.path("")
                let errors = try await blocking { () -> [Int32] in
                    // What vim (backupcopy=no), gedit, VS Code and friends do.
                    let temp = directory + "/.essay.txt.swp"
                    let written = POSIX.writeFile(temp, Array("version two, saved atomically".utf8))
                    let fd = open(temp, O_RDONLY | O_CLOEXEC)
                    let synced = fd >= 0 && fsync(fd) == 0 ? 0 : errno
                    if fd >= 0 { close(fd) }
                    let renamed = rename(temp, directory + "/essay.txt") == 0 ? 0 : errno
                    return [written, synced, renamed]
                }
                #expect(errors == [0, 0, 0])
                let content = try await blocking { try POSIX.readFile(directory + "/essay.txt") }
                #expect(content == Array("version two, saved atomically".utf8))
                let children = try await fixture.storage.children(of: fixture.root)
                #expect(children.map(\.name) == ["essay.txt"], "no temporary file is left behind")
                let saved = try #require(children.first)
                #expect(saved.id != original.id, "documented: the temporary file's ID wins on rename-over")
                #expect(try await fixture.content(of: saved.id) == Array("version two, saved atomically".utf8))
                #expect(await fixture.eventually { await fixture.locks.lock(on: saved.id) == nil })
            }
        }

        @Test func concurrentChangeMakesConflictCopyAndFailsClose() async throws {
            try await withMount { fixture in
                let file = try await fixture.seed("budget.xlsx", "base")
                let path = fixture.path("budget.xlsx")
                let fd = try await blocking { open(path, O_RDWR | O_TRUNC | O_CLOEXEC) }
                try #require(fd >= 0)
                let written = try await blocking {
                    Array("mine".utf8).withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                }
                #expect(written == 4)
                // Someone else saves meanwhile (e.g. through WOPI PutFile, ignoring our lock).
                _ = try await fixture.storage.writeFile(
                    file.id, content: .init(chunks: [.init(string: "theirs")]), expectedVersion: nil)

                let closeError = try await blocking { close(fd) == 0 ? 0 : errno }
                #expect(closeError == EIO, "the application learns that its save did not land")

                #expect(
                    try await fixture.content(of: file.id) == Array("theirs".utf8), "their change is not overwritten")
                let children = try await fixture.storage.children(of: fixture.root)
                let copy = try #require(children.first { $0.name.hasPrefix("budget (conflict ") })
                #expect(copy.name.hasSuffix(").xlsx"))
                #expect(try await fixture.content(of: copy.id) == Array("mine".utf8))
                #expect(await fixture.eventually { await fixture.locks.lock(on: file.id) == nil })
            }
        }

        @Test func deletedWhileOpenKeepsLocalVersionAsConflictCopy() async throws {
            try await withMount { fixture in
                let file = try await fixture.seed("gone.txt", "start")
                let path = fixture.path("gone.txt")
                let fd = try await blocking { open(path, O_WRONLY | O_APPEND | O_CLOEXEC) }
                try #require(fd >= 0)
                _ = try await blocking {
                    Array(" + edit".utf8).withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                }
                try await fixture.storage.delete(file.id)
                let syncError = try await blocking { fsync(fd) == 0 ? 0 : errno }
                let closeError = try await blocking { close(fd) == 0 ? 0 : errno }
                #expect(syncError == EIO)
                #expect(closeError == EIO)
                let copy = try #require(try await fixture.storage.children(of: fixture.root).first)
                #expect(copy.name.hasPrefix("gone (conflict "))
                #expect(try await fixture.content(of: copy.id) == Array("start + edit".utf8))
            }
        }
    }
}
