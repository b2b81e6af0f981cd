package import Foundation
package import WOPIStorage

/// A version whose content is stored but which no file points to yet.
package struct StagedVersion: Sendable {
    /// The version's ID, the file's version string once committed.
    package var id: Int64
    /// The content's size in bytes.
    package var size: Int64
    /// The content's SHA-256.
    package var sha256: Data
    /// Whether the content was cut by the `Zip` scheme (else `FullFile`).
    package var isZip: Bool
    /// Who saves it and how: the ``SaveContext`` of the task that streamed it in.
    package var save: SaveContext
}
