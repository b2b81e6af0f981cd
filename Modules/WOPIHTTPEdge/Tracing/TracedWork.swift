package import Tracing
package import WOPIFoundation

/// The work a request's child spans cover, each a span of the process's tracer (swift-distributed-tracing) under
/// the request's span: `storage.*` for the `StorageBackend`, `database.*` for the lock store and the user
/// directory (the database in SQLite and PostgreSQL deployments), `proof_key.verify` and `password.hash`.
///
/// With no instrument bootstrapped (the default) and none bound by `withTracer`, the work runs without a span: no
/// tracer lookup, no span, no task-local context (``records(with:)``). The span names are string literals at the
/// call sites for the same reason.
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
        guard Self.records(with: InstrumentationSystem.instrument) else { return try await body() }
        return try await withSpan(name, ofKind: .internal) { span in
            if span.isRecording {
                span.attributes["wopikit.work"] = rawValue
                if let item { span.attributes["wopi.item_id"] = item.rawValue }
            }
            return try await body()
        }
    }

    /// Whether spans under `instrument` (the process's, `InstrumentationSystem.instrument`) can record: `false` for
    /// swift-distributed-tracing's `NoOpInstrument`, what the process has when nothing was bootstrapped and no
    /// `withTracer` scope encloses the task. Then a request's spans are skipped: `withSpan` would look the tracer
    /// up under a lock, test its type, and bind a task-local context, all for a span that records nothing, on every
    /// request.
    package static func records(with instrument: any Instrument) -> Bool {
        !(instrument is NoOpInstrument)
    }
}
