import Metrics
import WOPIFoundation

/// The authorization server's metrics (Docs/operations.md): sign-ins and client authentications by result, and
/// codes or refresh tokens presented twice.
struct SignInMetrics: Sendable {
    /// What was attempted, for the `kind` label: a password sign-in (`account`) or a client's authentication at the
    /// token endpoint (`client`).
    enum Kind: String, Sendable {
        case account, client
    }

    /// How an attempt ended, for the `result` label.
    enum Result: String, Sendable {
        case success, failure, throttled
    }

    private struct AttemptKey: Hashable, Sendable {
        let kind: Kind
        let result: Result
    }

    private let attempts: MetricHandles<AttemptKey, Counter>
    private let reuse: MetricHandles<String, Counter>

    init(factory: any MetricsFactory) {
        attempts = MetricHandles { key in
            Counter(
                label: WOPIMetricName.signIns,
                dimensions: [("kind", key.kind.rawValue), ("result", key.result.rawValue)],
                factory: factory)
        }
        reuse = MetricHandles(counter: WOPIMetricName.tokenReuse, dimension: "grant", factory: factory)
    }

    /// Counts an attempt of the principal `principal` (`account:…` or `client:…`, as the throttle keys it).
    func attempt(_ principal: String, _ result: Result) {
        attempts[AttemptKey(kind: principal.hasPrefix("client:") ? .client : .account, result: result)].increment()
    }

    /// Counts a grant (`authorization_code`, `refresh_token`) presented a second time.
    func reused(_ grant: String) { reuse[grant].increment() }
}
