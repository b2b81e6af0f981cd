import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import NIOPosix
import Tracing

extension S3ObjectStore {
    /// Runs one S3 operation in a client span named `S3.<Operation>`: sends `request` (signed, retried as its
    /// ``S3Request/Retry`` allows) and gives the answer to `handle`, which reads it. An ``S3Error`` thrown on the way
    /// is counted by its code and marks the span failed.
    func perform<Result: Sendable>(
        _ request: S3Request, _ handle: (HTTPClientResponse) async throws -> Result
    ) async throws -> Result {
        try await withSpan("S3.\(request.operation.rawValue)", ofKind: .client) { span in
            span.attributes["rpc.system"] = "aws-api"
            span.attributes["rpc.service"] = "S3"
            span.attributes["rpc.method"] = request.operation.rawValue
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["aws.s3.bucket"] = configuration.bucket
            if let key = request.key { span.attributes["aws.s3.key"] = key }
            do {
                let response = try await send(request, span: span)
                span.attributes["http.response.status_code"] = Int(response.status.code)
                if let id = response.headers.first(name: "x-amz-request-id") { span.attributes["aws.request_id"] = id }
                return try await handle(response)
            } catch {
                // Counted by code when the store failed; an error of the caller's (a body stream's, a cancellation)
                // is not the store's.
                let failure = error as? S3Error
                if let failure { metrics.failed(request.operation, code: failure.code) }
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error, message: failure?.code.description))
                throw error
            }
        }
    }

    /// Sends `request` until it is answered with something else than a retryable failure, or the attempts run out.
    private func send(_ request: S3Request, span: any Span) async throws -> HTTPClientResponse {
        let policy = configuration.retry
        var attempt = 0
        while true {
            attempt += 1
            let outgoing = prepare(request)
            let started = ContinuousClock.now
            let response: HTTPClientResponse
            do {
                response = try await httpClient.execute(outgoing, deadline: .now() + Self.timeAmount(request.timeout))
            } catch {
                let elapsed = ContinuousClock.now - started
                metrics.answered(request.operation, status: nil, after: elapsed)
                if Task.isCancelled || error is CancellationError { throw CancellationError() }
                let failure = transportFailure(error, request: request, attempts: attempt)
                log(request, attempt: attempt, status: nil, elapsed: elapsed, failure: failure)
                // A server that could not be reached is not tried again: the HTTP client already kept trying to
                // connect for its whole connect timeout, and each new attempt would wait that long again.
                guard request.retry == .idempotent, attempt < policy.maxAttempts, !Self.couldNotConnect(error) else {
                    throw failure
                }
                try await retry(request, attempt: attempt, reason: "connection", retryAfter: nil, span: span)
                continue
            }
            let elapsed = ContinuousClock.now - started
            let status = Int(response.status.code)
            metrics.answered(request.operation, status: status, after: elapsed)
            if case .bytes(let buffer) = request.body { metrics.bytesSent.increment(by: buffer.readableBytes) }
            if case .stream(_, let length) = request.body { metrics.bytesSent.increment(by: Int(length)) }
            guard status >= 500 else {
                log(request, attempt: attempt, status: status, elapsed: elapsed, response: response)
                return response
            }
            let failure = await failure(for: response, request: request, attempts: attempt)
            log(request, attempt: attempt, status: status, elapsed: elapsed, response: response, failure: failure)
            let slowDown = failure.code == .slowDown
            let retryable = request.retry == .idempotent || (request.retry == .unprocessedOnly && slowDown)
            guard retryable, attempt < policy.maxAttempts else { throw failure }
            try await retry(
                request, attempt: attempt, reason: slowDown ? "slow_down" : "server_error",
                retryAfter: Self.retryAfter(response.headers), span: span)
        }
    }

    private func retry(
        _ request: S3Request, attempt: Int, reason: String, retryAfter: Duration?, span: any Span
    ) async throws {
        let delay = configuration.retry.delay(afterAttempt: attempt, retryAfter: retryAfter)
        metrics.retried(request.operation, reason: reason)
        span.addEvent(
            SpanEvent(name: "retry", attributes: ["reason": .string(reason), "attempt": .int64(Int64(attempt + 1))]))
        logger.notice(
            "Retrying an S3 request",
            metadata: [
                "s3.operation": "\(request.operation.rawValue)", "s3.key": "\(request.key ?? "")",
                "s3.attempt": "\(attempt + 1)", "s3.reason": "\(reason)", "s3.delay_ms": "\(delay.milliseconds)",
            ])
        try await configuration.retry.sleep(delay)
    }

    /// The HTTP request of one attempt, signed now (each attempt has its own `x-amz-date`).
    private func prepare(_ request: S3Request) -> HTTPClientRequest {
        let path = path(for: request.key)
        let payload: SigV4PayloadHash
        switch request.body {
        case .none: payload = .empty
        case .bytes(let buffer): payload = .sha256(of: buffer)
        case .stream: payload = .unsigned
        }
        let signing = SigV4Request(
            method: request.method.rawValue, host: host, path: path, query: request.query, headers: request.headers,
            payload: payload)
        let signature = signer.sign(signing, at: configuration.now())
        var outgoing = HTTPClientRequest(url: url(path: path, encodedQuery: Self.encodedQuery(request.query)))
        outgoing.method = request.method
        outgoing.headers.add(name: "Host", value: host)
        for (name, value) in request.headers + signature.headers { outgoing.headers.add(name: name, value: value) }
        switch request.body {
        case .none: break
        case .bytes(let buffer): outgoing.body = .bytes(buffer)
        case .stream(let body, _): outgoing.body = body
        }
        return outgoing
    }

    /// Logs an attempt at debug level (a failure at notice): what, which key, the status, how long; never a header.
    private func log(
        _ request: S3Request, attempt: Int, status: Int?, elapsed: Duration, response: HTTPClientResponse? = nil,
        failure: S3Error? = nil
    ) {
        var metadata: Logger.Metadata = [
            "s3.operation": "\(request.operation.rawValue)", "s3.method": "\(request.method.rawValue)",
            "s3.bucket": "\(configuration.bucket)", "s3.duration_ms": "\(elapsed.milliseconds)",
            "s3.attempt": "\(attempt)",
        ]
        if let key = request.key { metadata["s3.key"] = "\(key)" }
        if let status { metadata["s3.status"] = "\(status)" }
        if let id = response?.headers.first(name: "x-amz-request-id") { metadata["s3.request_id"] = "\(id)" }
        if let failure {
            metadata["s3.error"] = "\(failure.code)"
            if let code = failure.s3Code { metadata["s3.code"] = "\(code)" }
            logger.notice("S3 request failed", metadata: metadata)
        } else {
            logger.debug("S3 request", metadata: metadata)
        }
    }

    /// Whether `error` says no connection to the server could be made (refused, unreachable, or no answer within the
    /// connect timeout), as opposed to a connection that broke or a request that timed out.
    static func couldNotConnect(_ error: any Error) -> Bool {
        if error is NIOConnectionError { return true }
        if let client = error as? HTTPClientError { return client == .connectTimeout }
        if let channel = error as? ChannelError, case .connectTimeout = channel { return true }
        if let io = error as? IOError { return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(io.errnoCode) }
        return false
    }

    /// `Retry-After` in seconds, when the server sent it.
    private static func retryAfter(_ headers: HTTPHeaders) -> Duration? {
        headers.first(name: "retry-after").flatMap { Int($0) }.map { .seconds(max($0, 0)) }
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

extension Duration {
    /// The whole milliseconds, for logs.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
