import Testing
import WOPIStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `DirectoryEntry` reads a `readdir` record in place: a short record at the very end of a mapped page, followed by a
/// page that cannot be read, gives its name and type without touching that page (reading the whole `dirent`, or its
/// 256-byte `d_name`, crashes this test).
@Suite struct DirectoryEntryTests {
    @Test func aShortRecordAtTheEndOfAPageIsReadWithoutReadingPastIt() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let pages = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            pages != MAP_FAILED
        else {
            Issue.record("mmap failed: errno \(errno)")
            return
        }
        defer { munmap(pages, 2 * page) }
        #expect(mprotect(pages + page, page, PROT_NONE) == 0)
        let name = "a.docx"
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let typeOffset = MemoryLayout<dirent>.offset(of: \dirent.d_type)!
        // The record's length as the kernel lays it out: the fixed fields, the name and its NUL, rounded up to 8.
        let length = (nameOffset + name.utf8.count + 1 + 7) / 8 * 8
        #expect(length < MemoryLayout<dirent>.size)
        let record = pages + page - length
        record.storeBytes(of: UInt8(DT_REG), toByteOffset: typeOffset, as: UInt8.self)
        for (index, byte) in (Array(name.utf8) + [0]).enumerated() {
            record.storeBytes(of: byte, toByteOffset: nameOffset + index, as: UInt8.self)
        }
        let entry = UnsafePointer<dirent>(record.assumingMemoryBound(to: dirent.self))
        #expect(DirectoryEntry.name(entry) == name)
        #expect(DirectoryEntry.type(entry) == Int32(DT_REG))
    }

    @Test func aNameThatIsNotUTF8IsNil() throws {
        var entry = dirent()
        withUnsafeMutableBytes(of: &entry.d_name) { bytes in
            bytes[0] = 0xFF
            bytes[1] = 0
        }
        #expect(withUnsafePointer(to: &entry) { DirectoryEntry.name($0) } == nil)
    }
}
