import FileSystemStorage
import Foundation
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

    /// Two instances on one root, as two processes open it: the cross-host cases save through one and read, list,
    /// restore and collect garbage through the other.
    @Test(arguments: VersionConformance.cases)
    func versions(_ conformance: VersionConformanceCase) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let open: VersionConformanceCase.Factory = { retention, now in
            try FileSystemStorage(
                root: directory.url, configuration: .init(versionRetention: retention, now: now))
        }
        try await conformance.run(open, peer: open)
    }
}
