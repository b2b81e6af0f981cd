import Foundation
import HTTPTypes
import Logging
import WOPIAccounts
import WOPIHTTPEdge

extension OAuthAuthorizationServer {
    /// The counters one sign-in or client authentication is checked and counted against.
    struct ThrottleKeys: Sendable {
        /// `account:NAME` or `client:ID`: reset by a success.
        let principal: String
        /// `address:IP`, when the client address is known: only failures count, successes do not reset it.
        let address: String?
        /// The address as logged.
        let addressForLog: String

        /// The principal as logged: an account by its user ID, `account:unknown` for a name no user has (the
        /// name as typed is never logged: people type passwords into it), a client by its ID.
        var principalForLog: String {
            principal.hasPrefix("account:name:") ? "account:unknown" : principal
        }
    }

    /// The keys of an attempt at `principal` (already prefixed) from the client of `request`.
    func throttleKeys(_ principal: String, request: WOPIRequest) -> ThrottleKeys {
        let address = clientAddress(of: request)
        return ThrottleKeys(
            principal: principal, address: address.map { "address:" + $0 }, addressForLog: address ?? "-")
    }

    /// The client's address: the connection's peer, or the last `X-Forwarded-For` entry when the policy trusts a
    /// proxy (``SignInThrottlePolicy/trustsForwardedFor``).
    func clientAddress(of request: WOPIRequest) -> String? {
        if configuration.signInThrottle.trustsForwardedFor,
            let forwarded = request.headers[values: .xForwardedFor].last?.split(separator: ",")
                .last?.trimmingCharacters(in: .whitespaces), !forwarded.isEmpty
        {
            return forwarded
        }
        return request.remoteAddress
    }

    /// Reserves one attempt at the principal from the address before its password is hashed: throws
    /// ``SignInRefusal/throttled(retryAfter:)`` while either is locked out, or while as many attempts are already under
    /// way as the allowance has tries left (``SignInAttemptGate``). Release the reservation once the outcome is
    /// recorded (``recordFailure(_:what:)`` or ``recordSuccess(_:)``).
    func reserveAttempt(_ keys: ThrottleKeys) async throws -> SignInAttemptGate.Reservation {
        let policy = configuration.signInThrottle
        guard policy.isEnabled else { return .none }
        var counted = [(key: keys.principal, allowance: policy.accountAllowance)]
        if let address = keys.address { counted.append((address, policy.addressAllowance)) }
        let (reservation, positions) = attempts.enter(counted.map(\.key))
        var until: Date?
        var full = false
        do {
            for ((key, allowance), position) in zip(counted, positions) {
                let failures = try await throttle.failures(key)
                // A time read back from a store can differ from the clock's by rounding (seconds since 1970 in a
                // Double): a lock-out ending within a millisecond is over.
                if let locked = policy.lockedUntil(failures, allowance: allowance),
                    locked.timeIntervalSince(now()) > 0.001
                {
                    until = max(until ?? locked, locked)
                } else if position > max(1, allowance - (failures?.count ?? 0)) {
                    full = true
                }
            }
        } catch {
            reservation.release()
            throw error
        }
        guard until != nil || full else { return reservation }
        reservation.release()
        // Refused while others run: back once their hashes are done, in about a second.
        let wait = until.map { $0.timeIntervalSince(now()) - 0.001 } ?? 1
        metrics.attempt(keys.principal, .throttled)
        await audit(.signInThrottled, keys)
        logger.warning(
            "Attempt refused while locked out",
            metadata: [
                "key": "\(keys.principalForLog)", "address": "\(keys.addressForLog)", "retryAfter": "\(wait)",
                "underWay": "\(full)",
            ])
        throw SignInRefusal.throttled(retryAfter: Int(wait.rounded(.up)))
    }

    /// Counts a failure against the principal and the address, and logs it (never the password or secret).
    func recordFailure(_ keys: ThrottleKeys, what: String) async throws {
        metrics.attempt(keys.principal, .failure)
        await audit(.signInFailed, keys)
        let policy = configuration.signInThrottle
        var metadata: Logger.Metadata = ["key": "\(keys.principalForLog)", "address": "\(keys.addressForLog)"]
        if policy.isEnabled {
            let date = now()
            let forgetBefore = date.addingTimeInterval(-policy.forgetAfter)
            let count = try await throttle.recordFailure(keys.principal, at: date, forgetBefore: forgetBefore)
            if let address = keys.address {
                _ = try await throttle.recordFailure(address, at: date, forgetBefore: forgetBefore)
            }
            metadata["failuresInARow"] = "\(count.count)"
        }
        logger.notice("\(what) failed", metadata: metadata)
    }

    /// Forgets the principal's failures after a success.
    func recordSuccess(_ keys: ThrottleKeys) async throws {
        metrics.attempt(keys.principal, .success)
        await audit(.signIn, keys)
        guard configuration.signInThrottle.isEnabled else { return }
        try await throttle.resetFailures(keys.principal)
    }

    /// Records a sign-in attempt: the user when known (`client:ID` for a client), never the name as typed (people
    /// type passwords into it), and the address.
    func audit(_ action: AuditEvent.Action, _ keys: ThrottleKeys) async {
        let principal = keys.principal
        let user: String? =
            if principal.hasPrefix("account:id:") {
                String(principal.dropFirst("account:id:".count))
            } else if principal.hasPrefix("client:") {
                principal
            } else {
                nil
            }
        await audit(AuditEvent(action, at: now(), userID: user, address: keys.address.map { _ in keys.addressForLog }))
    }

    /// Records `event` in ``audit``, if there is one; a failing log is reported, never fails the sign-in.
    func audit(_ event: AuditEvent) async {
        await audit?.record(event, reportingFailuresTo: logger)
    }
}
