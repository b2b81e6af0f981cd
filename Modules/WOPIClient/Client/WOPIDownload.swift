public import WOPIStorage

/// The answer of GetFile: the version being read and the content, streaming.
public struct WOPIDownload: Sendable {
    /// `X-WOPI-ItemVersion`, when the host sent it.
    public var version: String?
    /// The content length, when the host sent `Content-Length`.
    public var length: Int64?
    /// The content; single pass. Dropping it before the end cancels the download.
    public var body: ByteStream

    /// Creates a download.
    public init(version: String?, length: Int64?, body: ByteStream) {
        self.version = version
        self.length = length
        self.body = body
    }
}
