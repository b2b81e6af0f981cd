/// How a request names its bucket: in the path (`http://host/bucket/key`) or in the host name
/// (`https://bucket.host/key`).
///
/// AWS prefers virtual-host addressing; Ceph's RADOS Gateway, MinIO and most servers on a bare IP address or
/// `localhost` need path addressing. A bucket whose name has dots breaks TLS with virtual-host addressing (the
/// certificate's wildcard covers one label only): use path addressing for it.
public enum S3Addressing: String, Sendable, Hashable, CaseIterable {
    /// `endpoint/bucket/key`.
    case path
    /// `bucket.endpoint/key`.
    case virtualHost = "virtual"
}
