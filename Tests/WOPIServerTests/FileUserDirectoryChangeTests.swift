import Foundation
import Testing
import WOPIServer
import WOPITestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `FileUserDirectory` keeps the users it decoded and checks the file's identity on every read: a change made on
/// disk, by another process or by hand, is seen by the next read.
struct FileUserDirectoryChangeTests {
    /// A clock a minute ahead: the file looks long settled, so the directory trusts its decoded copy.
    static let settledClock: @Sendable () -> Date = { Date().addingTimeInterval(60) }

    /// Saves Ana, reads her once (the directory now holds the decoded file) and returns the directory.
    func directoryWithAna(at url: URL, now: @escaping @Sendable () -> Date) async throws -> FileUserDirectory {
        let directory = FileUserDirectory(url: url, now: now)
        try await directory.save(
            WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        #expect(try await directory.user("ana")?.displayName == "Ana")
        #expect(try await directory.user("ana")?.displayName == "Ana")
        return directory
    }

    /// The file's bytes with Ana's display name replaced by one of the same length.
    func renamed(_ url: URL) throws -> Data {
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"Ana\""))
        return Data(text.replacingOccurrences(of: "\"Ana\"", with: "\"Ann\"").utf8)
    }

    func identity(_ url: URL) throws -> (inode: UInt64, size: Int64) {
        var status = stat()
        try #require(stat(url.path, &status) == 0)
        return (UInt64(status.st_ino), Int64(status.st_size))
    }

    /// Writes `data` over the file's bytes in place (same inode), as an editor saving without a rename would.
    func overwriteInPlace(_ url: URL, with data: Data) throws {
        let fd = open(url.path, O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let written = data.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        try #require(written == data.count)
    }

    @Test func anAtomicReplacementIsSeenByTheNextRead() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.appending("users.json")
        let directory = try await directoryWithAna(at: url, now: Self.settledClock)
        let before = try identity(url)
        try renamed(url).write(to: url, options: .atomic)  // a new file renamed over the old one
        #expect(try identity(url).inode != before.inode)
        #expect(try await directory.user("ana")?.displayName == "Ann")
        #expect(try await directory.user(signInName: "ana@example.com")?.displayName == "Ann")
    }

    @Test func anInPlaceRewriteOfTheSameSizeIsSeenByTheNextRead() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.appending("users.json")
        // The file's modification time an hour back, so the rewrite's time differs whatever the file system's tick.
        let directory = FileUserDirectory(url: url, now: Self.settledClock)
        try await directory.save(
            WOPIUser(id: "ana", signInName: "ana@example.com", displayName: "Ana", passwordHash: nil))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: url.path)
        #expect(try await directory.user("ana")?.displayName == "Ana")
        #expect(try await directory.allUsers().map(\.displayName) == ["Ana"])
        let before = try identity(url)
        try overwriteInPlace(url, with: try renamed(url))
        let after = try identity(url)
        #expect(after.inode == before.inode && after.size == before.size)
        #expect(try await directory.user("ana")?.displayName == "Ann")
    }

    @Test func aFileJustEditedInPlaceIsReadAfreshEvenWithinOneClockTick() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.appending("users.json")
        // The real clock: the read and the rewrite may share one tick of the file system's clock, so the file's
        // times may not change; the directory must not trust a copy of a file changed that recently.
        let directory = try await directoryWithAna(at: url, now: { Date() })
        try overwriteInPlace(url, with: try renamed(url))
        #expect(try await directory.user("ana")?.displayName == "Ann")
    }

    @Test func aDeletedFileAndANewOneAreSeen() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.appending("users.json")
        let directory = try await directoryWithAna(at: url, now: Self.settledClock)
        let data = try renamed(url)
        try FileManager.default.removeItem(at: url)
        #expect(try await directory.user("ana") == nil)
        try data.write(to: url)
        #expect(try await directory.user("ana")?.displayName == "Ann")
    }
}
