public import Foundation

extension S3ObjectStore {
    /// A URL that reads object `key` without credentials until it expires (a presigned GET, query-string
    /// authentication): to hand a download to a browser. Anyone with the URL can read the object meanwhile, so keep
    /// `expires` short and never log the URL.
    ///
    /// - Parameters:
    ///   - key: the object's key.
    ///   - expires: how long the URL works, 1 second to 7 days.
    ///   - responseContentDisposition: a `Content-Disposition` for S3 to answer with
    ///     (`attachment; filename="report.docx"`), signed into the URL.
    ///   - responseContentType: a `Content-Type` for S3 to answer with.
    /// - Throws: ``S3Error/Code/invalidArgument`` for an empty key or an expiry out of range.
    public func presignedURL(
        for key: String, expires: Duration = .seconds(900), responseContentDisposition: String? = nil,
        responseContentType: String? = nil
    ) throws -> URL {
        try Self.validate(key: key)
        var query: [(name: String, value: String)] = []
        if let responseContentDisposition { query.append(("response-content-disposition", responseContentDisposition)) }
        if let responseContentType { query.append(("response-content-type", responseContentType)) }
        let path = path(for: key)
        let signed = try signer.presign(
            SigV4Request(method: "GET", host: host, path: path, query: query, payload: .unsigned),
            at: configuration.now(), expires: Int(expires.components.seconds))
        guard let url = URL(string: url(path: path, encodedQuery: signed.query ?? "")) else {
            throw S3Error(.invalidArgument, "The presigned URL of \"\(key)\" is not a valid URL.")
        }
        return url
    }
}
