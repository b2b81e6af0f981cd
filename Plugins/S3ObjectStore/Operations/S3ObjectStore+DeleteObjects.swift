import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

extension S3ObjectStore {
    /// The most keys one DeleteObjects request names: 1000 (S3's limit).
    public static let maximumKeysPerDelete = 1000

    /// Deletes `keys` in batches of 1000 (DeleteObjects, `POST ?delete` with `Content-MD5`, quiet mode); keys that
    /// do not exist count as deleted.
    ///
    /// - Returns: the keys that could not be deleted, with S3's reason; empty when all were.
    /// - Throws: ``S3Error``: ``S3Error/Code/invalidArgument`` (before anything is sent) for a key that XML cannot
    ///   carry (a control character: delete it with ``deleteObject(_:)``), or a failure of a whole batch.
    public func deleteObjects(_ keys: [String]) async throws -> [S3DeleteFailure] {
        for key in keys {
            try Self.validate(key: key)
            guard S3XMLWriter.isRepresentable(key) else {
                throw S3Error(
                    .invalidArgument,
                    "Key \(key.debugDescription) has a control character that XML cannot carry: delete it with "
                        + "deleteObject(_:).")
            }
        }
        var failures: [S3DeleteFailure] = []
        var start = keys.startIndex
        while start < keys.endIndex {
            let end = keys.index(start, offsetBy: Self.maximumKeysPerDelete, limitedBy: keys.endIndex) ?? keys.endIndex
            failures += try await deleteBatch(keys[start..<end])
            start = end
        }
        return failures
    }

    private func deleteBatch(_ keys: ArraySlice<String>) async throws -> [S3DeleteFailure] {
        var xml = S3XMLWriter()
        xml.open("Delete", namespaced: true)
        xml.element("Quiet", "true")
        for key in keys {
            xml.open("Object")
            xml.element("Key", key)
            xml.close("Object")
        }
        xml.close("Delete")
        let body = Array(xml.text.utf8)
        var request = S3Request(.deleteObjects, .POST, key: nil, retry: .idempotent, timeout: configuration.timeout)
        request.query = [("delete", "")]
        request.headers = [
            ("content-type", "application/xml"),
            ("content-md5", Data(Insecure.MD5.hash(data: body)).base64EncodedString()),
        ]
        request.body = .bytes(ByteBuffer(bytes: body))
        return try await perform(request) { response in
            guard response.status.code == 200 else { throw await failure(for: response, request: request) }
            let root = try await Self.xml(response, operation: request.operation)
            // S3 may answer 200 with an error document when the whole batch failed.
            if root.name == "Error" {
                throw failure(status: 200, body: S3ErrorBody(root), headers: response.headers, request: request)
            }
            return root.children("Error").map { error in
                S3DeleteFailure(
                    key: error.text(of: "Key") ?? "", code: error.text(of: "Code") ?? "",
                    message: error.text(of: "Message") ?? "")
            }
        }
    }
}
