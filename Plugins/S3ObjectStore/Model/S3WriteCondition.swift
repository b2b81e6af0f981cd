/// A condition a PUT is made under: S3 stores the body only when it holds, and answers `412 Precondition Failed`
/// (``S3PutOutcome/preconditionFailed``) otherwise. Of concurrent PUTs of one key under
/// ``ifNoneMatch``, exactly one is stored.
public enum S3WriteCondition: Sendable, Hashable {
    /// Only when no object has the key (`If-None-Match: *`): create, never overwrite.
    case ifNoneMatch
    /// Only when the object's entity tag is this one (`If-Match`): replace what was read, not a newer write. Give
    /// the tag as a HEAD or GET returned it, quoted or not: it is sent bare, the form Ceph's RADOS Gateway (16)
    /// compares on a PUT (it refuses every quoted tag there).
    case ifMatch(String)

    var header: (name: String, value: String) {
        switch self {
        case .ifNoneMatch: return ("If-None-Match", "*")
        case .ifMatch(let etag):
            let bare =
                etag.count >= 2 && etag.hasPrefix("\"") && etag.hasSuffix("\"")
                ? etag.dropFirst().dropLast() : etag[...]
            return ("If-Match", String(bare))
        }
    }
}
