import Foundation
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// The CheckFileInfo properties Collabora Online and ONLYOFFICE read, set by an ``InfoDecorator``, arrive over
/// HTTP under their wire names.
@Suite struct ClientDialectPropertiesTests {
    struct DialectPolicy: AccessPolicy, InfoDecorator {
        func access(of user: WOPIUser, to item: StorageItem) async throws -> ItemAccess {
            item.ownerID == user.id ? .owner : .none
        }

        func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) {
            info.enableOwnerTermination = access.isOwner
            info.hidePrintOption = true
            info.hideSaveOption = true
            info.hideExportOption = true
            info.disableExport = true
            info.disableCopy = true
            info.watermarkText = user.signInName
            info.userCanReview = true
            info.supportsReviewing = true
            info.userCanNotWriteRelative = true
            info.downloadURL = "https://files.example.com/download/\(file.id)"
            info.fileVersionURL = "https://files.example.com/versions/\(file.id)"
        }
    }

    @Test func policySetsEveryDialectProperty() async throws {
        try await TestHost.run(policy: DialectPolicy(), decorators: [DialectPolicy()]) { wopi in
            let file = try await wopi.seedFile("a.docx")
            let json = try await wopi.get(wopi.fileURL(file.id)).json()
            for key in [
                "EnableOwnerTermination", "HidePrintOption", "HideSaveOption", "HideExportOption", "DisableExport",
                "DisableCopy", "UserCanReview", "SupportsReviewing", "UserCanNotWriteRelative",
            ] {
                #expect(json[key] as? Bool == true, "\(key)")
            }
            #expect(json["WatermarkText"] as? String == "ana@example.com")
            #expect(json["DownloadUrl"] as? String == "https://files.example.com/download/\(file.id)")
            #expect(json["FileVersionUrl"] as? String == "https://files.example.com/versions/\(file.id)")
        }
    }

    @Test func unsetPropertiesAreLeftOut() throws {
        let info = CheckFileInfo(baseFileName: "a.docx", ownerID: "u", size: 0, version: "1")
        let json = String(decoding: try WOPIJSON.encoder.encode(info), as: UTF8.self)
        #expect(!json.contains("HidePrintOption") && !json.contains("UserCanReview"))
    }
}
