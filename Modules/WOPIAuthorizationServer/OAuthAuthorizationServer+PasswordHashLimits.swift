import Foundation

extension OAuthAuthorizationServer.Configuration {
    /// How many password and client-secret hashes may run and wait at once (see
    /// ``OAuthAuthorizationServer/Configuration/passwordHashLimits``).
    public struct PasswordHashLimits: Sendable {
        /// Hashes that may run at once; the default leaves at least one core to WOPI requests.
        public var concurrency = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        /// Sign-ins that may wait for a slot; more are refused at once with 503 and `Retry-After`.
        public var queueLimit = 32
        /// The longest a sign-in waits for a slot before it is refused with 503 and `Retry-After`.
        public var maximumWait: Duration = .seconds(10)

        /// Creates the default limits.
        public init() {}
    }
}
