import FileSystemStorage
import Testing
import WOPIStorage
import WOPIStorageConformance
import WOPITestSupport

@Suite("FileSystemStorage conformance")
struct FileSystemConformanceTests {
    @Test(arguments: StorageConformance.cases)
    func conformance(_ conformance: StorageConformanceCase) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await conformance.run { try FileSystemStorage(root: directory.url) }
    }
}
