/// Sees every change a user is about to make, and may refuse it: a quota, a file-type rule, a legal hold.
///
/// Open for third-party conformances. The host asks each guard registered (`WOPIHost(…, changeGuards:)`), in
/// order, after the ``AccessPolicy`` allowed the change and the lock rules passed, before it changes anything, on
/// every path a change takes: each WOPI operation, the host pages, templates and the command line
/// (``WOPIHost/authorize(_:by:access:)``). A guard throws ``ContentVeto`` to refuse with a clear error.
///
/// ```swift
/// struct Quota: ChangeGuard {
///     let quotas: MyQuotaService
///     func willChange(_ change: ContentChange, by user: WOPIUser) async throws {
///         if case .putFile(_, let details) = change, let size = details.size,
///             size > (try await quotas.remaining(user.id))
///         {
///             throw ContentVeto.tooLarge("\(user.displayName)'s storage quota is used up; delete files or upgrade.")
///         }
///     }
/// }
/// ```
public protocol ChangeGuard: Sendable {
    /// Sees `change` before the host makes it; throws ``ContentVeto`` to refuse it.
    func willChange(_ change: ContentChange, by user: WOPIUser) async throws
}
