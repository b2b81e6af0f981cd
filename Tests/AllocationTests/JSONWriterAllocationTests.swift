import CMallocCounter
import Foundation
import Testing
import WOPIHTTPEdge
import WOPIModels

/// The direct JSON writer (`WOPIResponse.json`'s) allocates less than `JSONEncoder` for CheckFileInfo's body and
/// for a listing: it is there to make the answer cheaper, so this holds it to that. Part of the serialized
/// `CheckFileInfoAllocationTests`: the counter sees the whole process, so no other test may run beside these.
extension CheckFileInfoAllocationTests {
    /// A CheckFileInfo as the host answers it for a SQLite file (Operations/WOPIHost+Files.swift).
    static var checkFileInfo: CheckFileInfo {
        var info = CheckFileInfo(baseFileName: "Budget.xlsx", ownerID: "ana", size: 48_213, version: "v42")
        info.userID = "ana"
        info.userFriendlyName = "Ana"
        info.userInfo = ""
        info.isEduUser = false
        info.licenseCheckForEditIsEnabled = false
        info.userCanWrite = true
        info.userCanRename = true
        info.userCanNotWriteRelative = false
        info.readOnly = false
        let capabilities: [WritableKeyPath<CheckFileInfo, Bool?>] = [
            \.supportsLocks, \.supportsGetLock, \.supportsExtendedLockLength, \.supportsUpdate, \.supportsRename,
            \.supportsDeleteFile, \.supportsContainers, \.supportsEcosystem, \.supportsUserInfo,
            \.supportsAddActivities,
        ]
        for capability in capabilities { info[keyPath: capability] = true }
        info.fileExtension = ".xlsx"
        info.fileNameMaxLength = 255
        info.lastModifiedTime = "2026-11-27T08:00:00.0000000Z"
        info.sha256 = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        info.fileURL = "http://127.0.0.1:8080/wopi/files/0193a6f2-7e4c-7d2a-9b1e-5f3c2a1d0e9f/contents"
        return info
    }

    /// The least count of allocations per call of `body` over five rounds of 100, after a warm-up.
    static func allocations(_ body: () throws -> Void) throws -> Int {
        for _ in 0..<10 { try body() }
        var perCall = Int.max
        for _ in 0..<5 {
            wopikit_malloc_counter_start()
            for _ in 0..<100 { try body() }
            let allocations = wopikit_malloc_counter_stop()
            try #require(allocations >= 0, "This build cannot count allocations.")
            perCall = min(perCall, allocations / 100)
        }
        return perCall
    }

    @Test func checkFileInfoCostsFewerAllocationsThanJSONEncoder() throws {
        let info = Self.checkFileInfo
        let direct = try Self.allocations { _ = try DirectJSONWriter.buffer(of: info) }
        let encoder = try Self.allocations { _ = try WOPIJSON.encoder.encode(info) }
        print("CheckFileInfo body allocations: direct writer \(direct), JSONEncoder \(encoder)")
        #expect(direct > 0, "The counter saw no allocations: it is not interposed.")
        #expect(direct < encoder)
    }

    @Test func aListingCostsFewerAllocationsThanJSONEncoder() throws {
        let files = (0..<100).map {
            ChildFile(
                name: "File \($0).docx", url: "http://127.0.0.1:8080/wopi/files/\($0)?access_token=abc", size: 1,
                version: "v1", lastModifiedTime: "2026-11-27T08:00:00.0000000Z")
        }
        let listing = EnumerateChildrenResponse(childContainers: [], childFiles: files)
        let direct = try Self.allocations { _ = try DirectJSONWriter.buffer(of: listing) }
        let encoder = try Self.allocations { _ = try WOPIJSON.encoder.encode(listing) }
        print("Listing of 100 files, allocations: direct writer \(direct), JSONEncoder \(encoder)")
        #expect(direct < encoder)
    }
}
