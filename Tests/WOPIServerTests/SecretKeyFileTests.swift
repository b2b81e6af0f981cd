import Crypto
import Foundation
import Testing
import WOPIServer
import WOPITestSupport

@Suite("Secret key files")
struct SecretKeyFileTests {
    @Test("16 tasks racing to create one key all get the same whole key, in a 0600 file in a 0700 folder")
    func racingCreators() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.appending("secrets/token.key")
        let keys = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<16 {
                group.addTask { try await SecretKeyFile.loadOrCreate(at: url).withUnsafeBytes { Data($0) } }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(keys.count == 16 && Set(keys).count == 1)
        #expect(keys.first?.count == 32)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.appending("secrets").path)
        #expect(folderAttributes[.posixPermissions] as? Int == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appending("secrets").path) == ["token.key"])
        // A later process reads the same key.
        #expect(try await SecretKeyFile.loadOrCreate(at: url).withUnsafeBytes { Data($0) } == keys.first)
    }

    @Test("a truncated key file is refused with advice, not used")
    func truncated() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.appending("token.key")
        try Data(repeating: 1, count: 5).write(to: url)
        await #expect(throws: (any Error).self) { try await SecretKeyFile.loadOrCreate(at: url) }
    }
}
