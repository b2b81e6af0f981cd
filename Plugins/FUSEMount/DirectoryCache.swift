import NIOConcurrencyHelpers
import WOPIStorage

/// Short-lived copies of container listings, so that the lookups a single `ls -l` makes cost one backend call.
///
/// A listing is reused for at most the directory cache TTL; every change this mount makes in a container
/// invalidates that container's listing at once. A zero TTL turns the cache off.
final class DirectoryCache: Sendable {
    private struct Listing {
        var children: [String: StorageItem]
        var fetchedAt: ContinuousClock.Instant
    }

    private struct State {
        var listings: [ItemID: Listing] = [:]
        /// Bumped by every invalidation, so that a listing fetched across one is not stored.
        var epoch: UInt64 = 0
    }

    private let ttl: Duration
    private let state = NIOLockedValueBox(State())

    init(ttl: Duration) {
        self.ttl = ttl
    }

    /// The children of `container` by name, from the cache when fresh, otherwise from `load`.
    func children(
        of container: ItemID, load: () async throws -> [StorageItem]
    ) async throws -> [String: StorageItem] {
        let (cached, epoch) = state.withLockedValue { state -> ([String: StorageItem]?, UInt64) in
            guard let listing = state.listings[container], listing.fetchedAt + ttl > .now else {
                return (nil, state.epoch)
            }
            return (listing.children, state.epoch)
        }
        if let cached { return cached }
        let fetchedAt = ContinuousClock.now
        let items = try await load()
        let children = Dictionary(items.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        if ttl > .zero {
            state.withLockedValue { state in
                if state.epoch == epoch {
                    state.listings[container] = Listing(children: children, fetchedAt: fetchedAt)
                }
            }
        }
        return children
    }

    /// Forgets the listings of the given containers.
    func invalidate(_ containers: ItemID?...) {
        state.withLockedValue { state in
            state.epoch += 1
            for case let container? in containers { state.listings[container] = nil }
        }
    }
}
