import Foundation

extension S3ObjectStore {
    /// The `Host` header of requests to the bucket: the endpoint's host (with the bucket in front for virtual-host
    /// addressing), with `:port` when the port is not the scheme's default.
    var host: String {
        let endpoint = configuration.endpoint
        var name = endpoint.host ?? ""
        if name.contains(":") && !name.hasPrefix("[") { name = "[\(name)]" }
        if configuration.addressing == .virtualHost { name = "\(configuration.bucket).\(name)" }
        let scheme = endpoint.scheme?.lowercased()
        if let port = endpoint.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            name += ":\(port)"
        }
        return name
    }

    /// The decoded path of `key` in the bucket, or of the bucket itself when `key` is `nil`.
    func path(for key: String?) -> String {
        switch configuration.addressing {
        case .path: "/\(configuration.bucket)" + (key.map { "/\($0)" } ?? "")
        case .virtualHost: "/" + (key ?? "")
        }
    }

    /// The URL of a request: the endpoint's scheme, ``host``, the encoded path and the query (a parameter without a
    /// value sent bare: `?uploads`).
    func url(path: String, encodedQuery query: String) -> String {
        let scheme = configuration.endpoint.scheme?.lowercased() ?? "https"
        return "\(scheme)://\(host)\(SigV4URIEncoding.path(path))" + (query.isEmpty ? "" : "?\(query)")
    }

    /// The query as sent on the wire.
    static func encodedQuery(_ query: [(name: String, value: String)]) -> String {
        query.map { parameter in
            let name = SigV4URIEncoding.query(parameter.name)
            return parameter.value.isEmpty ? name : name + "=" + SigV4URIEncoding.query(parameter.value)
        }.joined(separator: "&")
    }

    /// Checks a key before it is sent.
    ///
    /// - Throws: ``S3Error/Code/invalidArgument`` for an empty key or one over 1024 bytes of UTF-8.
    static func validate(key: String) throws(S3Error) {
        guard !key.isEmpty else { throw S3Error(.invalidArgument, "An S3 object key is not empty.") }
        guard key.utf8.count <= 1024 else {
            throw S3Error(
                .invalidArgument, "An S3 object key is at most 1024 bytes of UTF-8; this one has \(key.utf8.count).")
        }
    }
}
