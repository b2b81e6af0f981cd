/// The parts of an HTTP request that AWS Signature Version 4 signs, before encoding.
///
/// `path` and the query are given decoded (`/my key.txt`, `prefix` = `a b`); the signer encodes them the way S3
/// expects (``SigV4URIEncoding``) and the client sends exactly that encoding, so what is signed is what is sent.
package struct SigV4Request: Sendable {
    /// The HTTP method, upper case (`GET`, `PUT`, ...).
    package var method: String
    /// The `Host` header: the host name, with `:port` when the port is not the scheme's default.
    package var host: String
    /// The decoded path, starting with `/`.
    package var path: String
    /// The decoded query parameters, in any order (a parameter without a value has an empty value: `?uploads`).
    package var query: [(name: String, value: String)]
    /// The headers to sign besides `host` and the `x-amz-*` headers the signer adds, in any order and case.
    package var headers: [(name: String, value: String)]
    /// What the body contributes: its SHA-256, or `UNSIGNED-PAYLOAD`.
    package var payload: SigV4PayloadHash

    /// A request to sign.
    package init(
        method: String, host: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], payload: SigV4PayloadHash = .empty
    ) {
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
        self.payload = payload
    }

    /// The headers but `host`, which ``host`` gives.
    var otherHeaders: [(name: String, value: String)] { headers.filter { $0.name.lowercased() != "host" } }

    /// The path as sent and signed.
    package var encodedPath: String { SigV4URIEncoding.path(path) }

    /// The query as sent: each name and value encoded, in the given order.
    package var encodedQuery: String {
        query.map { SigV4URIEncoding.query($0.name) + "=" + SigV4URIEncoding.query($0.value) }.joined(separator: "&")
    }
}
