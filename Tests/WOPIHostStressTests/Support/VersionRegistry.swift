import Foundation
import Synchronization

/// Every version of every test file that a test sent (or imported), with its digest, so that any body read
/// back can be told to be exactly one complete version.
///
/// A version is registered before its upload starts, so a reader can never see a version the registry lacks.
final class VersionRegistry: Sendable {
    private let digests = Mutex<[ContentPattern.Marker: Data]>([:])

    /// Records `pattern` (computing its digest) and returns it.
    @discardableResult
    func register(_ pattern: ContentPattern) -> ContentPattern {
        let digest = pattern.sha256
        digests.withLock { $0[pattern.marker] = digest }
        return pattern
    }

    /// Checks that `body` is one complete registered version of test file `file`; returns its marker.
    ///
    /// - Throws: a ``ContentMismatch`` saying what is wrong: unmarked, another file's, unknown, torn or truncated.
    func verify(_ body: ReceivedBody, isVersionOf file: Int) throws -> ContentPattern.Marker {
        guard let marker = body.marker else {
            throw ContentMismatch("file \(file): the body (\(body.length) bytes) has no pattern marker")
        }
        guard marker.file == file else {
            throw ContentMismatch("file \(file): the body is a version of file \(marker.file)")
        }
        guard let expected = digests.withLock({ $0[marker] }) else {
            throw ContentMismatch("file \(file): version \(marker.version) was never sent")
        }
        guard body.length == Int64(marker.size), body.sha256 == expected else {
            throw ContentMismatch(
                "file \(file): torn or truncated version \(marker.version) (\(body.length) of \(marker.size) bytes)")
        }
        return marker
    }
}

/// A body that is not one complete version that was sent.
struct ContentMismatch: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
