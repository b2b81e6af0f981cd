import WOPIModels
import WOPIOAuthCore

/// The outcome of atomically using a single-use credential (an authorization code or a refresh token).
public enum OAuthRedemption<Record: Sendable & Hashable>: Sendable, Hashable {
    /// The first use: the store marked it used and returns the record as it was.
    case first(Record)
    /// It had been used already: a replay. The caller revokes the record's family.
    case replay(Record)
}
