/// The canonical forms of SigV4: the canonical query string, the canonical headers and the canonical request.
enum SigV4Canonical {
    /// Headers lower-cased, trimmed (runs of spaces inside a value folded into one), repeated names joined with
    /// commas in their order, sorted by name.
    struct Headers {
        var entries: [(name: String, value: String)]

        /// `name:value` lines, each ending with a newline.
        var canonical: String { entries.map { "\($0.name):\($0.value)\n" }.joined() }
        /// The names, `;`-separated: the `SignedHeaders` value.
        var signedNames: String { entries.map(\.name).joined(separator: ";") }
    }

    static func headers(_ headers: [(name: String, value: String)]) -> Headers {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            let name = name.lowercased()
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(normalise(value))
        }
        let sorted = order.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return Headers(entries: sorted.map { ($0, values[$0]!.joined(separator: ",")) })
    }

    /// The parameters encoded and sorted by name, then value (byte order of the encoded forms), joined with `&`.
    static func query(_ parameters: [(name: String, value: String)]) -> String {
        parameters.map { (SigV4URIEncoding.query($0.name), SigV4URIEncoding.query($0.value)) }
            .sorted { left, right in
                left.0 == right.0
                    ? Array(left.1.utf8).lexicographicallyPrecedes(Array(right.1.utf8))
                    : Array(left.0.utf8).lexicographicallyPrecedes(Array(right.0.utf8))
            }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    static func request(method: String, path: String, query: String, headers: Headers, payload: SigV4PayloadHash)
        -> String
    {
        [method, path, query, headers.canonical, headers.signedNames, payload.value].joined(separator: "\n")
    }

    /// Leading and trailing whitespace removed and each run of spaces or tabs inside folded into one space.
    private static func normalise(_ value: String) -> String {
        var out = ""
        var pendingSpace = false
        for character in value {
            if character == " " || character == "\t" || character == "\n" || character == "\r" {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(character)
            }
        }
        return out
    }
}
