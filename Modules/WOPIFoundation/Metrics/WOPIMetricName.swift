/// The name of every metric WOPIKit records through swift-metrics, in Prometheus style (`_total` for counters,
/// `_seconds` for timers). Labels are bounded: an operation, a status, a check, a result; never an item ID, a user
/// name or a token. Docs/operations.md describes each, with its labels.
package enum WOPIMetricName {
    /// Counter `{operation, status}`: WOPI requests answered.
    package static let requests = "wopi_requests_total"
    /// Timer `{operation}`: the time to a WOPI request's response head.
    package static let requestDuration = "wopi_request_duration_seconds"
    /// Counter: lock requests (and PutFile) refused because another lock holds the file.
    package static let lockConflicts = "wopi_lock_conflicts_total"
    /// Counter `{check}`: WOPI requests refused by the proof-key check.
    package static let proofKeyFailures = "wopi_proof_key_failures_total"
    /// Counter: bytes of file content sent by GetFile.
    package static let getFileBytes = "wopi_getfile_bytes_total"
    /// Counter: bytes of file content stored by PutFile.
    package static let putFileBytes = "wopi_putfile_bytes_total"
    /// Changes to earlier versions of files, by `change` (`restore`, `delete`).
    package static let versionChanges = "wopi_version_changes_total"
    /// Counter `{code}`: requests that failed in the storage or the database (`io`, `corrupt`, `busy`,
    /// `unavailable`).
    package static let storageErrors = "wopi_storage_errors_total"
    /// Counter `{kind, result}`: password sign-ins (`kind="account"`) and client authentications
    /// (`kind="client"`), by `result` `success`, `failure` or `throttled`.
    package static let signIns = "wopi_signin_attempts_total"
    /// Counter `{grant}`: an OAuth authorization code or refresh token presented a second time (its tokens are
    /// revoked).
    package static let tokenReuse = "wopi_oauth_token_reuse_total"
    /// Gauge `{kind}`: unexpired locks in the lock store, `wopi`, `coauth` or `coauth_exclusive`.
    package static let activeLocks = "wopi_active_locks"
    /// Timer `{database}`: the wait for a pooled database connection (`postgresql`).
    package static let poolWait = "wopi_db_pool_wait_seconds"
    /// Counter `{result}`: storage garbage-collection runs, `success` or `failure`.
    package static let garbageCollections = "wopi_gc_runs_total"
}
