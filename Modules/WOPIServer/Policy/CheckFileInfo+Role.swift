import WOPIAccounts
import WOPIModels

extension CheckFileInfo {
    /// What the user's role (``ItemAccess/permission``) tells the editors: the table of
    /// Docs/policies-and-sharing.md, from what Collabora Online (`wsd/wopi/WopiStorage.cpp`) and ONLYOFFICE
    /// (`wopiClient.js`) read. One answer serves all three editors:
    ///
    /// - `UserCanWrite` is ``ItemAccess/canWrite``: a commenter or reviewer has it through the verified editor,
    ///   because Collabora opens comment and redline modes only with it, and the editor saves them with PutFile.
    /// - `ReadOnly` is true below ``Permission/edit``: ONLYOFFICE edits only when it is false, and Office for the web,
    ///   which has no comment or review mode, opens read-only.
    /// - A commenter gets `UserCanOnlyComment`; a reviewer `UserCanOnlyManageRedlines` (Collabora) and
    ///   `UserCanReview` (ONLYOFFICE's review-only mode, as `ReadOnly` keeps its editing off); an editor
    ///   `UserCanReview` too, so ONLYOFFICE offers track changes.
    /// - A secure viewer gets a watermark with their name, and no print, export, download or copying out.
    mutating func describeRole(of access: ItemAccess, user: WOPIUser) {
        let permission = access.permission
        userCanWrite = access.canWrite
        readOnly = permission < .edit
        supportsReviewing = true
        // A commenter or reviewer writes only through the verified editor: only then does the mode apply.
        let writes = access.canWrite
        userCanOnlyComment = permission == .comment && writes ? true : nil
        userCanOnlyManageRedlines = permission == .review && writes ? true : nil
        userCanReview = permission >= .review && writes
        guard permission == .secureView else { return }
        watermarkText = "\(user.displayName) · \(user.signInName)"
        (disablePrint, hidePrintOption, disableExport, hideExportOption) = (true, true, true, true)
        disableCopy = true
        copyPasteRestrictions = "CurrentDocumentOnly"
    }
}
