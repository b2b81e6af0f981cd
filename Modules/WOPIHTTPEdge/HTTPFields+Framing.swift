public import HTTPTypes

extension HTTPFields {
    /// Whether the request's `Transfer-Encoding` is one a server can frame its body by: absent, or exactly
    /// `chunked` (any case, once).
    ///
    /// Any other coding (`xchunked`, `gzip, chunked`, `chunked, identity`, two fields) leaves the body's length
    /// unknown; NIO's HTTP/1.1 parser then reads the request as having no body and the body as the next request,
    /// which is how requests are smuggled past a proxy that reads it otherwise. RFC 9112 §6.1: the server answers
    /// 400 and closes the connection.
    public var hasAcceptableTransferEncoding: Bool {
        let codings = self[values: .transferEncoding]
        return codings.isEmpty || codings.map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() } == ["chunked"]
    }
}
