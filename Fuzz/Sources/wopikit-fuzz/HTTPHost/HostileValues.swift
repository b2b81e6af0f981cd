import WOPIModels

/// Header values that break parsers, by what a header holds: the edges of 64-bit integers and of what follows them
/// (`+ 1`, `- 1`), ranges at those edges, empty and very long values, names no file system takes, broken UTF-7, URLs,
/// tokens and time stamps. A header draws from the list of its kind (``values(for:)``), so a draw is likely to hit.
enum HostileValues {
    static let numbers: [String] = [
        "9223372036854775807", "9223372036854775806", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616", "4194304", "4194305", "4194303",
        "2147483647", "2147483648", "4294967296", "0", "-1", "1", "-0", "+1", " 1 ", "01", "1.5", "1e3", "0x10", "NaN",
        String(repeating: "9", count: 400), "", " ",
    ]

    static let ranges: [String] = [
        "bytes=0-9223372036854775807", "bytes=9223372036854775807-", "bytes=-9223372036854775807",
        "bytes=-9223372036854775808", "bytes=9223372036854775806-9223372036854775807", "bytes=1-9223372036854775807",
        "bytes=0-18446744073709551616", "bytes=0-", "bytes=-0", "bytes=-1", "bytes=5-1", "bytes=0-0,1-1", "bytes=4-4",
        "bytes=12-", "bytes=13-", "bytes=0-12", "bytes 0-1", "items=0-1", "bytes=-", "bytes=--1", "BYTES = 1 - 2", "",
    ]

    static let names: [String] = [
        ".docx", ".", "..", "/", "a/b", "\\", "CON", "con.txt", "a:b", "*", "name.", "name ", " name", "\t", "",
        String(repeating: "n", count: 300) + ".docx", "+AGEAYgBj-", "+ZeVnLIqe-.docx", "+-", "+", "+AAA", "+2D3cAA-",
        "+////-", "+AAAAAAAAAAAA-", "-+", "notes.txt", "Folder", "Folder/inner.docx", "\u{202E}cod.exe", "%2F",
    ]

    static let flags: [String] = ["true", "TRUE", "false", "yes", "1", "", " true"]

    static let words: [String] =
        [
            "", " ", String(repeating: "a", count: 70_000), String(repeating: "a", count: 4097), "a b", "\u{0}",
            "\u{7F}",
            "%", "%00", "\"", "\"\"", "W/\"1\"", "{}", "[]", "\u{FFFD}", "\u{1F600}", "é", "=", "AAAA", "////",
            "Coauth", "CoauthExclusive", "ReadOnly", "ReadWrite", "UnknownType", "lock-one", "lock-two", "coauth-one",
        ] + OverrideChoice.all

    static let credentials: [String] = [
        "Bearer", "Bearer ", "Bearer oauth-ana", "bearer: oauth-ana", "Bearer oauth-ghost", "Basic YTpi", "Bearer a b",
        "access_token=", "a=b; access_token=x", "",
    ]

    static let urls: [String] = [
        "http://wopi.test/wopi/files/a", "https://wopi.test/wopi/containers/a", "https://wopi.test/wopi/files/%ZZ",
        "http://[::1", "//wopi.test/wopi/files/", "wopi.test:99999", "[::1]:80", "wopi.test/x", "a b", "", "https",
        "javascript:", "wopi.test:-1", "\u{0}", "https://wopi.test/wopi/files/shared-with-me",
    ]

    static let times: [String] = [
        "2023-11-14T22:13:20Z", "2023-11-14T22:13:20.123456789Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
        "-638200000000000000", "638360000000000000", "-9223372036854775808", "9223372036854775807", "0", "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-0-0-0",
        "ff-" + String(repeating: "f", count: 53),
    ]

    /// The values `header` draws from.
    static func values(for header: String) -> [String] {
        switch header {
        case WOPIHeader.sequenceNumber, WOPIHeader.contentRangeOffset, WOPIHeader.contentRangeLength,
            WOPIHeader.coauthLockExpirationTimeout, WOPIHeader.coauthTableVersion, WOPIHeader.lockExpirationTimeout,
            WOPIHeader.maxExpectedSize, WOPIHeader.size, "Content-Length":
            numbers
        case "Range", "If-Range": ranges
        case WOPIHeader.suggestedTarget, WOPIHeader.relativeTarget, WOPIHeader.requestedName,
            WOPIHeader.fileExtensionFilterList, WOPIHeader.hostNativeFileName, WOPIHeader.editors:
            names
        case WOPIHeader.lockUserVisible, WOPIHeader.overwriteRelativeTarget, WOPIHeader.fileConversion,
            "X-COOL-WOPI-IsModifiedByUser", "X-LOOL-WOPI-IsModifiedByUser", "X-COOL-WOPI-IsAutosave",
            "X-COOL-WOPI-IsExitSave":
            flags
        case "Authorization", "Cookie": credentials
        case WOPIHeader.wopiSrc, FuzzHeaders.host, "X-Forwarded-Proto", "X-Forwarded-For": urls
        case WOPIHeader.timeStamp, "X-COOL-WOPI-Timestamp", "X-LOOL-WOPI-Timestamp", "traceparent", "tracestate": times
        default: words
        }
    }
}

/// Every request header the host reads (Modules/WOPIServer and WOPIHTTPEdge), and what a client would send in each.
enum FuzzHeaders {
    /// `Host` sets the request's authority instead of a field.
    static let host = "Host"

    static let names: [String] = [
        WOPIHeader.lock, WOPIHeader.oldLock, WOPIHeader.sequenceNumber, WOPIHeader.uploadSessionToken,
        WOPIHeader.contentRangeOffset, WOPIHeader.contentRangeLength, "Range", "If-Range", WOPIHeader.coauthLockID,
        WOPIHeader.coauthLockType, WOPIHeader.coauthLockMetadata, WOPIHeader.coauthLockExpirationTimeout,
        WOPIHeader.coauthTableVersion, WOPIHeader.lockExpirationTimeout, WOPIHeader.lockUserVisible,
        WOPIHeader.maxExpectedSize, WOPIHeader.size, WOPIHeader.editors, WOPIHeader.suggestedTarget,
        WOPIHeader.relativeTarget, WOPIHeader.overwriteRelativeTarget, WOPIHeader.requestedName,
        WOPIHeader.fileConversion, WOPIHeader.fileExtensionFilterList, WOPIHeader.urlType, WOPIHeader.wopiSrc,
        WOPIHeader.hostNativeFileName, WOPIHeader.override, WOPIHeader.ecosystemOperation, WOPIHeader.proof,
        WOPIHeader.proofOld, WOPIHeader.timeStamp, WOPIHeader.sessionContext, WOPIHeader.correlationID,
        WOPIHeader.requestID, "Content-Type", "Content-Length", "Authorization", "Cookie", "X-Forwarded-Proto",
        "X-Forwarded-For", host, "X-COOL-WOPI-Timestamp", "X-LOOL-WOPI-Timestamp", "X-COOL-WOPI-IsModifiedByUser",
        "X-LOOL-WOPI-IsModifiedByUser", "X-COOL-WOPI-IsAutosave", "X-COOL-WOPI-IsExitSave", "X-COOL-WOPI-ServerId",
        "traceparent", "tracestate",
    ]

    /// The headers a client sends with `operation`.
    static func natural(for operation: Operation) -> [String] {
        switch operation {
        case .putFile, .lock, .refreshLock, .unlock: [WOPIHeader.lock]
        case .unlockAndRelock: [WOPIHeader.lock, WOPIHeader.oldLock]
        case .putRelativeFile: [WOPIHeader.suggestedTarget, WOPIHeader.size]
        case .renameFile: [WOPIHeader.requestedName, WOPIHeader.lock]
        case .getFileShareURL, .getContainerShareURL: [WOPIHeader.urlType]
        case .getCoauthLock, .refreshCoauthLock, .unlockCoauthLock:
            [WOPIHeader.coauthLockID, WOPIHeader.coauthLockType, WOPIHeader.coauthLockExpirationTimeout]
        case .getCoauthTable: [WOPIHeader.coauthTableVersion]
        case .putChunkedFile: [WOPIHeader.sequenceNumber]
        case .updateUploadSession:
            [WOPIHeader.uploadSessionToken, WOPIHeader.contentRangeOffset, WOPIHeader.contentRangeLength]
        case .createChildContainer, .createChildFile: [WOPIHeader.suggestedTarget]
        case .renameContainer: [WOPIHeader.requestedName]
        case .getFileWopiSrc, .bootstrapGetWopiSrc: [WOPIHeader.hostNativeFileName]
        case .bootstrapGetNewAccessToken: [WOPIHeader.wopiSrc]
        default: []
        }
    }
}
