public import Foundation

/// Which earlier versions of a file a ``VersionedStorage`` keeps: a deployment's policy.
///
/// The current version and versions kept by name (``FileVersion/isKept``) are always kept. Any other version goes
/// as soon as one rule lets it go: when ``keepLast`` newer versions that are not kept by name exist, or when it is
/// older than ``keepFor``. With neither rule set, every version is kept until a user deletes it.
///
/// **Coalescing.** An autosave (``SaveContext/isAutosave``) by the same user as the current version, itself an
/// autosave saved less than ``autosaveGracePeriod`` before, replaces that version instead of adding one, as reva's
/// `noversiongraceperiod` does: a document edited for an hour keeps one autosave, beside every explicit and exit
/// save (an exit save, ``SaveContext/isExitSave``, is never replaced and never replaces).
///
/// Backends apply the rules at each save and in garbage collection (``GarbageCollectingStorage``), on their
/// injected clock; a version a reader still reads stays until the read ends.
public struct VersionRetention: Sendable, Hashable {
    /// How many of the newest versions not kept by name stay, the current one included; `nil` for no limit.
    public var keepLast: Int?
    /// How long a version stays after it was saved; `nil` for no limit.
    public var keepFor: TimeInterval?
    /// How close together two autosaves by one user must be for the later to replace the earlier; 0 never
    /// coalesces.
    public var autosaveGracePeriod: TimeInterval

    /// Creates a policy.
    public init(keepLast: Int? = nil, keepFor: TimeInterval? = nil, autosaveGracePeriod: TimeInterval = 0) {
        precondition(keepLast.map { $0 >= 1 } ?? true, "keepLast counts the current version: at least 1.")
        precondition(keepFor.map { $0 >= 0 } ?? true && autosaveGracePeriod >= 0, "Durations are not negative.")
        self.keepLast = keepLast
        self.keepFor = keepFor
        self.autosaveGracePeriod = autosaveGracePeriod
    }

    /// The default: the last 50 versions, none older than 30 days, and autosaves coalesced within 10 minutes.
    public static let standard = VersionRetention(keepLast: 50, keepFor: 30 * 86_400, autosaveGracePeriod: 600)

    /// Only the current version: no history.
    public static let currentOnly = VersionRetention(keepLast: 1)

    /// Whether a save with `save`, replacing a current version saved at `previousSavedAt` with `previous`, replaces
    /// it instead of adding a version.
    public func coalesces(
        _ save: SaveContext, previous: SaveContext, previousSavedAt: Date, previousIsKept: Bool, now: Date
    ) -> Bool {
        autosaveGracePeriod > 0 && save.isAutosave && !save.isExitSave && previous.isAutosave
            && !previous.isExitSave && !previousIsKept
            && save.userID != nil && save.userID == previous.userID
            && now.timeIntervalSince(previousSavedAt) < autosaveGracePeriod
    }

    /// The IDs of `versions` (one file's, newest first, as ``VersionedStorage/versions(of:)`` lists them) that the
    /// rules let go at `now`: the reference that every backend's rules match.
    public func expired(_ versions: [FileVersion], now: Date) -> Set<String> {
        var expired: Set<String> = []
        var newerUnkept = 0
        for version in versions {
            defer { if !version.isKept { newerUnkept += 1 } }
            guard !version.isCurrent, !version.isKept else { continue }
            let beyondCount = keepLast.map { newerUnkept >= $0 } ?? false
            let tooOld = keepFor.map { now.timeIntervalSince(version.savedAt) >= $0 } ?? false
            if beyondCount || tooOld { expired.insert(version.id) }
        }
        return expired
    }
}
