/// Writes the small XML documents S3 requests carry (`Delete`, `CompleteMultipartUpload`,
/// `CreateBucketConfiguration`).
struct S3XMLWriter {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"

    /// Opens `name`, in S3's namespace when `namespaced`.
    mutating func open(_ name: String, namespaced: Bool = false) {
        text += namespaced ? "<\(name) xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">" : "<\(name)>"
    }

    /// Closes `name`.
    mutating func close(_ name: String) { text += "</\(name)>" }

    /// `<name>value</name>`, the value escaped.
    mutating func element(_ name: String, _ value: String) {
        text += "<\(name)>\(Self.escape(value))</\(name)>"
    }

    /// Whether `value` can be written in XML 1.0 at all (it has no control character but tab, newline and return).
    static func isRepresentable(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x20 || scalar == "\t" || scalar == "\n" || scalar == "\r"
        }
    }

    /// `value` with `&`, `<`, `>`, `"`, `'` and carriage returns escaped.
    static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
