/// How long a client may keep the host waiting while it sends a request (``WOPIDeployment/Configuration/requestTimeouts``),
/// beside the idle timeout, which a byte every few seconds keeps from firing.
public struct RequestTimeouts: Sendable, Hashable {
    /// The longest a request head may take to arrive, counted from when the host waits for it (the connection
    /// opened, or the previous response ended). Default 30 s.
    public var header: Duration
    /// How long a request body may keep the host waiting (seconds in which the host asked for more and none came)
    /// before the minimum rate applies. Default 30 s.
    public var body: Duration
    /// The bytes a body must bring per second of waiting beyond ``body``. Default 1 KiB.
    public var minimumBodyRate: Int

    /// Creates the timeouts; every value is at least 1 second (or byte).
    public init(header: Duration = .seconds(30), body: Duration = .seconds(30), minimumBodyRate: Int = 1024) {
        self.header = max(header, .seconds(1))
        self.body = max(body, .seconds(1))
        self.minimumBodyRate = max(minimumBodyRate, 1)
    }
}
