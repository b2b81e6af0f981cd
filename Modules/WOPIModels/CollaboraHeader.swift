/// The PutFile headers of Collabora Online, each under its current `X-COOL-WOPI-` name and the older
/// `X-LOOL-WOPI-` one (https://sdk.collaboraonline.com/docs/advanced_integration.html).
public enum CollaboraHeader {
    /// The two prefixes of these headers: `X-COOL-WOPI-` and the legacy `X-LOOL-WOPI-` (which ONLYOFFICE sends).
    public static let prefixes = ["X-COOL-WOPI-", "X-LOOL-WOPI-"]
    /// The file's `LastModifiedTime` as Collabora last read it: a PutFile whose value no longer matches gets
    /// 409 with `{"COOLStatusCode": 1010}` (the document changed behind the editor's back).
    public static let timestamp = ["X-COOL-WOPI-Timestamp", "X-LOOL-WOPI-Timestamp"]
    /// `true` when a user changed the document since the last save.
    public static let isModifiedByUser = ["X-COOL-WOPI-IsModifiedByUser", "X-LOOL-WOPI-IsModifiedByUser"]
    /// `true` for a save made on Collabora's own timer.
    public static let isAutosave = ["X-COOL-WOPI-IsAutosave", "X-LOOL-WOPI-IsAutosave"]
    /// `true` for the save made when the last editor closed the document.
    public static let isExitSave = ["X-COOL-WOPI-IsExitSave", "X-LOOL-WOPI-IsExitSave"]
    /// The `COOLStatusCode` of a PutFile refused because the document changed since Collabora read it.
    public static let documentChangedStatus = 1010
}
