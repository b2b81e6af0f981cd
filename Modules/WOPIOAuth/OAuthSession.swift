public import Foundation
import Logging

/// Holds one grant's tokens and hands out valid access tokens, refreshing shortly before expiry.
///
/// Concurrent callers share a single refresh in flight, so a rotated refresh token is never sent twice. When the
/// server rejects the refresh token (`invalid_grant`) the tokens are cleared, from the store too, and callers get
/// ``OAuthError/Code/signInRequired``: run the sign-in again (``NativeAppAuthorizer``) and call ``signIn(with:)``.
///
/// ```swift
/// let session = try await OAuthSession.restore(client: client, store: FileTokenStore(directory: dir), key: key)
/// let token = try await session.validAccessToken()
/// ```
public actor OAuthSession {
    /// The key under which the tokens are stored.
    public nonisolated let key: String
    /// The token endpoint client used to refresh.
    public nonisolated let client: TokenEndpointClient
    private let store: (any TokenStore)?
    private let refreshLeeway: Duration
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var tokens: TokenSet?
    private var refreshTask: Task<Result<TokenSet, OAuthError>, Never>?
    /// Bumped on every sign-in and sign-out, so a refresh that started before one does not undo it.
    private var generation = 0

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - client: The token endpoint client used to refresh.
    ///   - tokens: The tokens to start with, if any.
    ///   - store: Where tokens are saved after each refresh and deleted on sign-out; `nil` keeps them in memory only.
    ///   - key: The store key.
    ///   - refreshLeeway: How long before expiry a token is refreshed.
    ///   - now: The clock.
    public init(
        client: TokenEndpointClient, tokens: TokenSet? = nil, store: (any TokenStore)? = nil, key: String = "default",
        refreshLeeway: Duration = .seconds(60), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.tokens = tokens
        self.store = store
        self.key = key
        self.refreshLeeway = refreshLeeway
        self.now = now
        self.logger = client.logger
    }

    /// Creates a session with the tokens saved in a store under `key`, if any.
    ///
    /// - Throws: ``OAuthError/Code/storage`` when the store cannot be read.
    public static func restore(
        client: TokenEndpointClient, store: any TokenStore, key: String, refreshLeeway: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws(OAuthError) -> OAuthSession {
        let tokens: TokenSet?
        do {
            tokens = try await store.load(key: key)
        } catch {
            throw Self.storageError(error, "Could not load the saved tokens; sign in again.")
        }
        return OAuthSession(
            client: client, tokens: tokens, store: store, key: key, refreshLeeway: refreshLeeway, now: now)
    }

    /// The current tokens, without refreshing; `nil` when signed out.
    public var currentTokens: TokenSet? { tokens }

    /// Whether the session holds tokens.
    public var isSignedIn: Bool { tokens != nil }

    /// Replaces the tokens after a sign-in and saves them.
    ///
    /// - Throws: ``OAuthError/Code/storage`` when they cannot be saved (they are still used in memory).
    public func signIn(with tokens: TokenSet) async throws(OAuthError) {
        generation += 1
        refreshTask = nil
        self.tokens = tokens
        guard let store else { return }
        do {
            try await store.save(tokens, key: key)
        } catch {
            throw Self.storageError(error, "Could not save the tokens; they last until this process ends.")
        }
    }

    /// Forgets the tokens, here and in the store.
    ///
    /// - Throws: ``OAuthError/Code/storage`` when the saved tokens cannot be deleted.
    public func signOut() async throws(OAuthError) {
        generation += 1
        refreshTask = nil
        tokens = nil
        try await deleteStored()
    }

    /// Returns an access token that is valid for at least the refresh leeway, refreshing first if needed.
    ///
    /// - Throws: ``OAuthError/Code/signInRequired`` when there are no tokens or the refresh token was rejected;
    ///   another ``OAuthError`` when the refresh failed for another reason and the current token has expired.
    public func validAccessToken() async throws(OAuthError) -> String {
        try await validTokens().accessToken
    }

    /// Returns tokens whose access token is valid for at least the refresh leeway, refreshing first if needed.
    public func validTokens() async throws(OAuthError) -> TokenSet {
        if let refreshTask { return try await refreshTask.value.get() }
        guard let tokens else {
            throw OAuthError(.signInRequired, "Not signed in; sign in first.")
        }
        if !tokens.isExpired(at: now(), leeway: refreshLeeway) { return tokens }
        // A transient failure falls back to the current token while it has not actually expired.
        return try await refresh(from: tokens, fallback: tokens)
    }

    /// Returns a new access token after a resource server rejected `accessToken` (HTTP 401).
    ///
    /// If the tokens were already refreshed since `accessToken` was handed out, the newer token is returned without
    /// another refresh, so many requests failing at once cause one refresh.
    public func refreshedAccessToken(replacing accessToken: String) async throws(OAuthError) -> String {
        if let refreshTask { return try await refreshTask.value.get().accessToken }
        guard let tokens else {
            throw OAuthError(.signInRequired, "Not signed in; sign in first.")
        }
        if tokens.accessToken != accessToken { return tokens.accessToken }
        return try await refresh(from: tokens, fallback: nil).accessToken
    }

    /// Refreshes now, whatever the expiry, joining a refresh already in flight.
    public func refresh() async throws(OAuthError) -> TokenSet {
        if let refreshTask { return try await refreshTask.value.get() }
        guard let tokens else {
            throw OAuthError(.signInRequired, "Not signed in; sign in first.")
        }
        return try await refresh(from: tokens, fallback: nil)
    }

    private func refresh(from tokens: TokenSet, fallback: TokenSet?) async throws(OAuthError) -> TokenSet {
        let generation = self.generation
        let task = Task { await self.performRefresh(from: tokens, fallback: fallback, generation: generation) }
        refreshTask = task
        return try await task.value.get()
    }

    private func performRefresh(from tokens: TokenSet, fallback: TokenSet?, generation: Int) async -> Result<
        TokenSet, OAuthError
    > {
        logger.debug("Refreshing tokens", metadata: ["key": "\(key)"])
        let result: Result<TokenSet, OAuthError>
        do {
            result = .success(try await client.refresh(tokens))
        } catch {
            result = .failure(error)
        }
        guard generation == self.generation else {
            // Signed in or out meanwhile: report the outcome but keep the newer state.
            return result
        }
        refreshTask = nil
        switch result {
        case .success(let refreshed):
            self.tokens = refreshed
            await saveQuietly(refreshed)
            return .success(refreshed)
        case .failure(let error) where error.requiresSignIn:
            logger.notice("Refresh token rejected; signing out", metadata: ["key": "\(key)", "error": "\(error.code)"])
            self.tokens = nil
            try? await deleteStored()
            return .failure(
                OAuthError(
                    .signInRequired,
                    "The refresh token was rejected (expired, revoked or reused); sign in again.",
                    serverErrorCode: error.serverErrorCode, serverDescription: error.serverDescription,
                    httpStatus: error.httpStatus, underlying: error))
        case .failure(let error):
            logger.warning("Refresh failed", metadata: ["key": "\(key)", "error": "\(error.code)"])
            if let fallback, !fallback.isExpired(at: now()) { return .success(fallback) }
            return .failure(error)
        }
    }

    private func saveQuietly(_ tokens: TokenSet) async {
        guard let store else { return }
        do {
            try await store.save(tokens, key: key)
        } catch {
            logger.error(
                "Could not save refreshed tokens; the next run may have to sign in again",
                metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    private func deleteStored() async throws(OAuthError) {
        guard let store else { return }
        do {
            try await store.delete(key: key)
        } catch {
            throw Self.storageError(error, "Could not delete the saved tokens; delete them by hand.")
        }
    }

    private static func storageError(_ error: any Error, _ message: String) -> OAuthError {
        (error as? OAuthError) ?? OAuthError(.storage, message, underlying: error)
    }
}
