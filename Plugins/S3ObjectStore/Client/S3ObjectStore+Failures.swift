import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension S3ObjectStore {
    /// The error for a non-successful answer: its XML error body read (64 KiB at most) and turned into an
    /// ``S3Error`` that says what to do.
    func failure(for response: HTTPClientResponse, request: S3Request, attempts: Int = 1) async -> S3Error {
        let bytes = (try? await response.body.collect(upTo: 64 << 10)).map { Array($0.readableBytesView) } ?? []
        return failure(
            status: Int(response.status.code), body: S3ErrorBody(bytes), headers: response.headers, request: request,
            attempts: attempts)
    }

    /// The error for `status` with the error document `body` (which HEAD answers lack).
    func failure(
        status: Int, body: S3ErrorBody?, headers: HTTPHeaders, request: S3Request, attempts: Int = 1
    ) -> S3Error {
        let code = body?.code
        let requestID = body?.requestID ?? headers.first(name: "x-amz-request-id")
        let detail = body?.message.map { ": \($0)" } ?? "."
        let operation = request.operation.rawValue
        let bucket = configuration.bucket
        let what =
            request.key.map { "\(operation) of \"\($0)\" in bucket \(bucket)" } ?? "\(operation) on bucket \(bucket)"
        let accessKey = S3Credentials.redacted(configuration.credentials.accessKeyID)
        func error(_ kind: S3Error.Code, _ message: String) -> S3Error {
            S3Error(kind, message, status: status, s3Code: code, requestID: requestID)
        }
        if let region = headers.first(name: "x-amz-bucket-region") ?? body?.region, region != configuration.region,
            status == 301 || status == 307 || status == 400 || code == "PermanentRedirect"
                || code == "AuthorizationHeaderMalformed"
        {
            return error(
                .wrongRegion,
                "Bucket \(bucket) is in region \(region), not \(configuration.region): set the region to \(region).")
        }
        switch (status, code) {
        case (_, "InvalidAccessKeyId"), (_, "SignatureDoesNotMatch"):
            return error(
                .invalidCredentials,
                "The S3 server does not accept access key \(accessKey) or its secret (\(code ?? "")): check "
                    + "\(S3Credentials.Variable.accessKeyID) and \(S3Credentials.Variable.secretAccessKey)"
                    + " (and \(S3Credentials.Variable.sessionToken) for temporary credentials).")
        case (_, "ExpiredToken"), (_, "InvalidToken"), (_, "TokenRefreshRequired"):
            return error(
                .invalidCredentials,
                "The S3 session token is expired or invalid (\(code ?? "")): get new temporary credentials and set "
                    + "\(S3Credentials.Variable.sessionToken).")
        case (_, "RequestTimeTooSkewed"):
            return error(
                .clockSkewed,
                "The S3 server refused \(what): this machine's clock is more than 15 minutes off the server's. "
                    + "Sync the clock (NTP).")
        case (_, "AccessDenied"):
            return error(
                .accessDenied,
                "Access key \(accessKey) may not do \(what)\(detail) Grant it the permission (the user's or the "
                    + "bucket's policy).")
        case (403, nil):
            return error(
                .accessDenied,
                "The S3 server refused \(what) (403 without a reason, as HEAD answers are): the secret key may be "
                    + "wrong (check \(S3Credentials.Variable.secretAccessKey)) or access key \(accessKey) may lack the "
                    + "permission.")
        case (_, "NoSuchBucket"):
            return error(
                .noSuchBucket,
                "Bucket \(bucket) does not exist on \(configuration.endpoint.absoluteString): create it "
                    + "(S3ObjectStore.createBucket()) or fix the bucket name.")
        case (_, "NoSuchKey"), (404, nil):
            return error(.noSuchKey, "No object \"\(request.key ?? "")\" in bucket \(bucket).")
        case (_, "NoSuchUpload"):
            return error(
                .noSuchUpload,
                "The multipart upload of \"\(request.key ?? "")\" no longer exists (completed or aborted): start a "
                    + "new one.")
        case (412, _):
            return error(.preconditionFailed, "The condition of \(what) did not hold\(detail)")
        case (_, "BucketAlreadyExists"):
            return error(
                .bucketAlreadyExists, "The bucket name \(bucket) is taken by another account: choose another name.")
        case (409, _):
            return error(
                .conflict, "Another request changed the same resource while \(what) ran\(detail) Send it again.")
        case (416, _), (_, "InvalidRange"):
            return error(.invalidRange, "The byte range of \(what) starts past the end of the object.")
        case (_, "SlowDown"):
            return error(
                .slowDown,
                "The S3 server asked to slow down on \(what), \(attempts) time(s): send fewer requests at once.")
        case (500..., _), (_, "InternalError"):
            return error(
                .serverError,
                "The S3 server failed \(what) with HTTP \(status)\(code.map { " \($0)" } ?? "") on \(attempts) "
                    + "attempt(s)\(detail) Check the server's health.")
        default:
            return error(
                .rejected, "The S3 server refused \(what) with HTTP \(status)\(code.map { " \($0)" } ?? "")\(detail)")
        }
    }

    /// The error for a request that got no answer: the connection failed or the request timed out.
    func transportFailure(_ error: any Error, request: S3Request, attempts: Int) -> S3Error {
        let what = request.key.map { "\(request.operation.rawValue) of \"\($0)\"" } ?? request.operation.rawValue
        if let client = error as? HTTPClientError,
            client == .deadlineExceeded || client == .readTimeout || client == .connectTimeout
                || client == .getConnectionFromPoolTimeout
        {
            return S3Error(
                .timeout,
                "\(what) did not complete in time (\(client)) on \(attempts) attempt(s): check that "
                    + "\(configuration.endpoint.absoluteString) answers, or raise the timeout.",
                underlying: error)
        }
        return S3Error(
            .connectionFailed,
            "\(what) could not reach \(configuration.endpoint.absoluteString) on \(attempts) attempt(s): check the "
                + "endpoint and that the S3 server runs.",
            underlying: error)
    }
}
