/// The name of every metric ``S3ObjectStore`` records through swift-metrics, in WOPIKit's Prometheus style
/// (`wopi_` prefix, `_total` for counters, `_seconds` for timers). Labels are bounded: an operation name
/// (``S3Operation``), a status class, an error code; never a key, a bucket or a request ID.
package enum S3MetricName {
    /// Counter `{operation, status}`: requests answered (`status` is `2xx`, `3xx`, `4xx`, `5xx`), or that failed
    /// without an answer (`status="error"`), each attempt counted.
    package static let requests = "wopi_s3_requests_total"
    /// Timer `{operation}`: the time to a request's response head, each attempt.
    package static let requestDuration = "wopi_s3_request_duration_seconds"
    /// Counter: bytes of request bodies sent (objects, parts, XML).
    package static let bytesSent = "wopi_s3_bytes_sent_total"
    /// Counter: bytes of object content received (GET bodies as they are read).
    package static let bytesReceived = "wopi_s3_bytes_received_total"
    /// Counter `{operation, code}`: operations that failed with an ``S3Error`` (`code` is its ``S3Error/Code``).
    package static let errors = "wopi_s3_errors_total"
    /// Counter `{operation, reason}`: requests sent again, by `reason` `slow_down`, `server_error` or `connection`.
    package static let retries = "wopi_s3_retries_total"
}
