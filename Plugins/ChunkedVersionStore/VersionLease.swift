/// A reader's lease on a version, taken in the transaction that picks the version (``VersionOpening``).
package struct VersionLease: Sendable {
    /// The lease's row ID.
    package var id: Int64
    /// The leased version.
    package var versionID: Int64
    /// The version's piece size (its fixed chunk size in the old layout).
    package var chunkSize: Int64
    /// Whether the version is in the content-defined chunk layout (else the old fixed-size one).
    package var isChunked: Bool
    /// When the lease runs out unless renewed (seconds since 1970).
    package var expiresAt: Double
}

/// The statements that open a file's current version for reading, to run in the plugin's transaction that reads
/// the file's row (so that a switch to a new version, on any host, cannot come in between), and how to read
/// their rows back.
package struct VersionOpening: Sendable {
    /// The version to read.
    package let versionID: Int64
    /// The new lease's expiry.
    package let expiresAt: Double
    /// The layout of the version and a new lease on it.
    package let statements: [SQLStatement]

    /// The lease the rows of ``statements`` describe.
    package func lease(from rows: [[SQLRow]]) throws -> VersionLease {
        guard rows.count == 2, let version = rows[0].first, version.count == 3, let chunkSize = version[0].integer,
            let leaseID = rows[1].first?.first?.integer
        else { throw StorageErrors.missingRows }
        return VersionLease(
            id: leaseID, versionID: versionID, chunkSize: chunkSize, isChunked: version[1].integer == 1,
            expiresAt: expiresAt)
    }
}
