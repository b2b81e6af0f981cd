/// Literal values the validator's test cases use.
enum ValidatorValues {
    static let lockString = "LockString"
    static let newLockString = "NewLockString"
    static let incorrectLockString = "IncorrectLockString"
    /// A 256-character lock ID (`LockLengthValidation`).
    static let lock256 = String(repeating: "1234567890", count: 25) + "123456"
    /// A 1024-character lock ID (`files.ExtendedLockLengthValidation`).
    static let lock1024 = String(repeating: lock256, count: 4)
    /// An Office-style JSON lock ID (`LockFormatValidation`).
    static let jsonLock =
        #"{"S":"0136ad16-9725-43c3-9ea0-5e01d2dbc162","E":2,"M":"DE997C5AC4E6","P":"6058AF1E-A36F-4691-9003-B8E2C7F50937"}"#
    /// The name of `…FileNameLongerThan512Chars` (533 characters).
    static let longName = String(repeating: "longwopitestfilename", count: 26) + ".wopitestfoox"
    /// The access token the `AccessToken Mutation="INVALID"` mutator puts in place of the real one.
    static let invalidToken = "INVALID"
    /// The URL properties `ViewOnlySupport` and `BasicEdit` require to be absolute when present.
    static let viewingURLRules: [JSONRule] = [
        "BreadcrumbBrandUrl", "BreadcrumbDocUrl", "BreadcrumbFolderUrl", "DownloadUrl", "CloseUrl", "HostEditUrl",
        "HostViewUrl",
    ].map { .absoluteURL($0) }
    /// The four properties every CheckFileInfo must carry, as `ViewOnlySupport` and the edit cases check them.
    static let basicCheckFileInfoRules: [JSONRule] = [
        .string("BaseFileName", required: true), .string("OwnerId", required: true), .long("Size", required: true),
        .string("Version", required: true),
    ]
    /// `Url` checks of a new-file response (PutRelativeFile, CreateChildFile).
    static func newFileRules(name: JSONRule, tokenInURL: Bool = true) -> [JSONRule] {
        [
            name, .absoluteURL("Url", required: true, mustIncludeAccessToken: tokenInURL),
            .absoluteURL("HostViewUrl"), .absoluteURL("HostEditUrl"),
        ]
    }
}
