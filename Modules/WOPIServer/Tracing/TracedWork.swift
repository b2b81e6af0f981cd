import Tracing
package import WOPIStorage

/// The work a request's child spans cover, each a span of the process's tracer (swift-distributed-tracing) under
/// the request's span: `storage.*` for the ``StorageBackend``, `database.*` for the lock store and the user
/// directory (the database in SQLite and PostgreSQL deployments), `proof_key.verify` and `password.hash`.
///
/// With no tracer bootstrapped (the default) a span is the no-op one: no allocation, no clock read. The span names
/// are string literals at the call sites for the same reason.
package enum TracedWork: String, Sendable {
    case storage
    case database
    case proofKey = "proof_key"
    case passwordHash = "password_hash"

    /// Runs `body` in a child span `name` of the current trace context, with `wopikit.work` and the item it touches
    /// (`wopi.item_id`) as attributes; a thrown error is recorded on the span and rethrown.
    package func traced<Result>(
        _ name: String, item: ItemID? = nil, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await withSpan(name, ofKind: .internal) { span in
            if span.isRecording {
                span.attributes["wopikit.work"] = rawValue
                if let item { span.attributes["wopi.item_id"] = item.rawValue }
            }
            return try await body()
        }
    }
}
