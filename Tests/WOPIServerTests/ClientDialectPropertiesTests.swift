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

    @Test("the Collabora Online fields of wsd/wopi/WopiStorage.cpp arrive under their wire names")
    func collaboraFields() async throws {
        struct Collabora: InfoDecorator {
            func decorate(file: FileMetadata, _ info: inout CheckFileInfo, user: WOPIUser, access: ItemAccess) {
                (info.hideRepairOption, info.disableInactiveMessages, info.downloadAsPostMessage) = (true, true, true)
                (info.enableInsertRemoteImage, info.enableInsertRemoteFile) = (true, true)
                (info.disableInsertLocalImage, info.enableRemoteLinkPicker) = (true, true)
                (info.enableRemoteAIContent, info.disableAISettings, info.isUserRestricted) = (true, true, true)
                (info.disableChangeTrackingRecord, info.disableChangeTrackingShow) = (true, true)
                info.hideChangeTrackingControls = true
                (info.hideUserList, info.presentationLeader) = ("mobile,tablet", user.id)
                (info.templateSaveAs, info.obfuscatedUserID) = ("Letter.docx", "u-1")
                info.serverPrivateInfo = ["key": "server"]
                info.userSettings = ["uri": "https://files.example.com/settings/\(user.id)"]
            }
        }
        try await TestHost.run(decorators: [Collabora()]) { wopi in
            let file = try await wopi.seedFile("a.docx")
            let json = try await wopi.get(wopi.fileURL(file.id)).json()
            for key in [
                "HideRepairOption", "DisableInactiveMessages", "DownloadAsPostMessage", "EnableInsertRemoteImage",
                "EnableInsertRemoteFile", "DisableInsertLocalImage", "EnableRemoteLinkPicker", "EnableRemoteAIContent",
                "DisableAISettings", "IsUserRestricted", "DisableChangeTrackingRecord", "DisableChangeTrackingShow",
                "HideChangeTrackingControls",
            ] {
                #expect(json[key] as? Bool == true, "\(key)")
            }
            #expect(
                json["HideUserList"] as? String == "mobile,tablet" && json["PresentationLeader"] as? String == "ana")
            #expect(json["TemplateSaveAs"] as? String == "Letter.docx" && json["ObfuscatedUserId"] as? String == "u-1")
            #expect(json["ServerPrivateInfo"] as? [String: String] == ["key": "server"])
            #expect(json["UserSettings"] as? [String: String] == ["uri": "https://files.example.com/settings/ana"])
        }
    }

    @Test func unsetPropertiesAreLeftOut() throws {
        let info = CheckFileInfo(baseFileName: "a.docx", ownerID: "u", size: 0, version: "1")
        let json = String(decoding: try WOPIJSON.encoder.encode(info), as: UTF8.self)
        #expect(!json.contains("HidePrintOption") && !json.contains("UserCanReview"))
    }
}
