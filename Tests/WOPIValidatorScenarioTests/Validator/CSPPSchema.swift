import Foundation

/// The CheckFileInfo JSON schemas the validator's `FullCheckFileInfoSchema` and `WopiValidatorPrereq` accept
/// (facts from `JsonSchemas/CsppCheckFileInfoSchema.json`): the CSPP schema, or the CSPP-Plus one that instead
/// requires the eight co-authoring properties. Unknown properties are allowed.
enum CSPPSchema {
    enum Kind {
        case string, nullableString, integer, boolean, uri, dateTime
        case enumeration(Set<String>)
        case stringArray(allowed: Set<String>?)
    }

    static let required = ["BaseFileName", "OwnerId", "Size", "UserId", "Version"]

    /// Present in CSPP-Plus responses only; the CSPP schema forbids them.
    static let csppPlusOnly = [
        "SupportsCoauth", "SequenceNumber", "OfficeCollaborationServiceEndpointUrl", "RealTimeChannelEndpointUrl",
        "AccessTokenExpiry", "ServerTime", "SharingStatus", "FileGeoLocationCode",
    ]

    static let properties: [String: Kind] = {
        var table: [String: Kind] = [
            "BaseFileName": .string, "OwnerId": .string, "Size": .integer, "UserId": .string, "Version": .string,
            "FileNameMaxLength": .integer, "LastModifiedTime": .dateTime,
            "ClientThrottlingProtection": .enumeration([
                "MostProtected", "Protected", "Normal", "LessProtected", "LeastProtected", "",
            ]),
            "CopyPasteRestrictions": .enumeration(["BlockAll", "CurrentDocumentOnly", ""]),
            "RequestedCallThrottling": .enumeration(["Unknown", "Normal", "Minor", "Medium", "Major", "Critical", ""]),
            "CobaltCapabilities": .stringArray(allowed: ["DownloadStreaming"]),
            "SupportedShareUrlTypes": .stringArray(allowed: ["ReadOnly", "ReadWrite"]),
            "WorkflowType": .stringArray(allowed: ["Assign", "Submit"]),
            "EnabledApplicationFeatures": .stringArray(allowed: nil),
        ]
        for name in [
            "AllowAdditionalMicrosoftServices", "AllowErrorReportPrompt", "AllowExternalMarketplace",
            "CloseButtonClosesWindow", "DisableBrowserCachingOfUserContent", "DisablePrint", "DisableTranslation",
            "IsAnonymousUser", "IsEduUser", "LicenseCheckForEditIsEnabled", "ProtectInClient", "ReadOnly",
            "RestrictedWebViewOnly", "SupportsCobalt", "SupportsContainers", "SupportsDeleteFile", "SupportsEcosystem",
            "SupportsExtendedLockLength", "SupportsFileCreation", "SupportsFolders", "SupportsGetFileWopiSrc",
            "SupportsGetLock", "SupportsLocks", "SupportsRename", "SupportsScenarioLinks", "SupportsSecureStore",
            "SupportsUpdate", "SupportsUserInfo", "TemporarilyNotWritable", "UserCanAttend", "UserCanNotWriteRelative",
            "UserCanPresent", "UserCanRename", "UserCanWrite", "WebEditingDisabled", "AppStateHistoryPostMessage",
            "ClosePostMessage", "EditModePostMessage", "EditNotificationPostMessage", "FileEmbedCommandPostMessage",
            "FileSharingPostMessage", "FileVersionPostMessage", "WorkflowPostMessage", "AllowAddActivitiesUserBatching",
            "AllowEarlyFeatures", "EditingCannotSave", "InsertImagePostMessage", "IsYammerEnabled",
            "OpenInClientPostMessage", "PermissionsPostMessage", "PolicyCheckPostMessage", "ProtectedFile",
            "ReportAbusePostMessage", "SupportsAddActivities", "SupportsCheckPolicy", "SupportsCheckUserAccess",
            "SupportsContactsResolution", "SupportsFileUserValue", "SupportsGetActivities", "SupportsGrantUserAccess",
            "SupportsPolicies", "SupportsReviewing", "UserCanReview",
        ] {
            table[name] = .boolean
        }
        for name in [
            "BreadcrumbBrandName", "BreadcrumbDocName", "BreadcrumbFolderName", "ComplianceDomainPrefix",
            "FileExtension", "HostAuthenticationId", "HostNotes", "IrmPolicyDescription", "IrmPolicyTitle",
            "PresenceProvider", "PresenceUserId", "SHA256", "TenantId", "TimeZone", "UniqueContentId",
            "UserFriendlyName", "UserInfo", "UserPrincipalName", "AADUserObjectId", "AppliedPolicyId",
            "EmbeddingPageSessionInfo", "HostAuthenticationIdType", "HostName", "LicensedOrganization",
            "SafeLinksStatus",
        ] {
            table[name] = .nullableString
        }
        for name in [
            "BreadcrumbBrandUrl", "BreadcrumbFolderUrl", "ClientUrl", "CloseUrl", "DownloadUrl", "EditAndReplyUrl",
            "FileEmbedCommandUrl", "FileSharingUrl", "FileUrl", "FileVersionUrl", "HostEditUrl", "HostEmbeddedEditUrl",
            "HostEmbeddedViewUrl", "HostViewUrl", "HostRestUrl", "SignInUrl", "SignoutUrl", "WorkflowUrl",
            "PostMessageOrigin", "AppCatalogUrl", "BreadcrumbDocUrl", "DirectInvokeDAVUrl", "EmbeddingPageOrigin",
            "HostDivSyndicationViewUrl", "OpenInClientCommandUrl", "PrivacyUrl", "ReportAbuseUrl", "TermsOfUseUrl",
        ] {
            table[name] = .uri
        }
        return table
    }()

    /// Problems of `document` against the CSPP schema, or none if it matches the CSPP-Plus variant's shape.
    static func problems(in document: JSONValue) -> [String] {
        guard case .object(let members) = document else { return ["the response is not a JSON object"] }
        var problems: [String] = []
        for name in required where members[name] == nil { problems.append("required property '\(name)' is missing") }
        let isCsppPlus = csppPlusOnly.allSatisfy { members[$0] != nil }
        if !isCsppPlus {
            for name in csppPlusOnly where members[name] != nil {
                problems.append("'\(name)' must be absent in a CSPP response (it belongs to CSPP Plus)")
            }
        }
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard let kind = properties[name], let problem = problem(value, kind) else { continue }
            problems.append("'\(name)' \(problem)")
        }
        return problems
    }

    private static func problem(_ value: JSONValue, _ kind: Kind) -> String? {
        switch (kind, value) {
        case (.string, .string), (.integer, .integer), (.boolean, .bool): return nil
        case (.nullableString, .string), (.nullableString, .null): return nil
        case (.uri, .null), (.dateTime, .null), (.enumeration, .null), (.stringArray, .null): return nil
        case (.uri, .string(let text)):
            return text.isEmpty || JSONRule.isAbsoluteURL(text) ? nil : "must be an absolute URI or \"\", got '\(text)'"
        case (.dateTime, .string(let text)):
            return text.isEmpty || isDateTime(text) ? nil : "must be an ISO 8601 date-time, got '\(text)'"
        case (.enumeration(let allowed), .string(let text)):
            return allowed.contains(text) ? nil : "has a value outside \(allowed.sorted()): '\(text)'"
        case (.stringArray(let allowed), .array(let items)):
            for item in items {
                guard let text = item.stringValue else { return "must hold strings only" }
                if let allowed, !allowed.contains(text) { return "holds '\(text)', outside \(allowed.sorted())" }
            }
            return nil
        default:
            return "has the wrong JSON type for \(kind): \(value)"
        }
    }

    /// RFC 3339 date-time, with or without fractional seconds (up to 7 digits, as .NET writes them).
    static func isDateTime(_ text: String) -> Bool {
        text.range(
            of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?(Z|[+-]\d{2}:\d{2})$"#, options: .regularExpression)
            != nil
    }
}
