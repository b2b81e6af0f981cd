public import Foundation
public import Logging
public import WOPIModels

/// Loads a WOPI client's discovery (Office for the web, Collabora Online, ONLYOFFICE), keeps it, and answers the
/// host's two questions: which URL opens a file (``action(_:fileName:progID:)``) and which keys sign the client's
/// requests (``proofKeyValidator()``) (Docs/wopi-protocol.md §12, §13).
///
/// - The first call loads discovery. Afterwards a call finding the copy older than
///   ``Configuration/refreshInterval`` (12 hours) fetches it again.
/// - ``keysMayHaveRotated()`` (the host calls it when a proof fails with the keys in hand, or verifies only
///   through the old key) fetches again, at most once per ``Configuration/minimumFetchInterval`` (a minute).
/// - A failed fetch keeps the last good copy and is logged; it is tried again after the minimum interval.
/// - Concurrent callers share one fetch.
///
/// ```swift
/// let discovery = DiscoveryClient(source: .file("/etc/wopi/discovery.xml"))
/// let match = try await discovery.action("edit", fileName: "Budget.xlsx")
/// let url = match.action.url(wopiSrc: wopiSrc, values: ActionURLOptions(uiLanguage: "en-US").values)
/// var configuration = WOPIHostConfiguration()
/// configuration.proofKeySource = discovery   // check proofs on every WOPI request
/// ```
public actor DiscoveryClient: ProofKeySource {
    /// When discovery is fetched again.
    public struct Configuration: Sendable {
        /// The age after which a copy is fetched again (12 hours; Microsoft suggests 12 to 24).
        public var refreshInterval: TimeInterval = 12 * 60 * 60
        /// The least time between two fetches, successful or not (a minute).
        public var minimumFetchInterval: TimeInterval = 60
        /// The net zones to prefer for actions, in order (others follow in document order): Microsoft 365
        /// publishes `external-https`, Collabora Online and ONLYOFFICE often `external-http` only.
        public var preferredZones: [String] = [DiscoveryNetZone.Name.externalHTTPS]

        /// Creates the defaults.
        public init() {}
    }

    private struct Loaded {
        var discovery: WOPIDiscovery
        var validator: Result<ProofKeyValidator, DiscoveryError>
        var fetchedAt: Date
        /// What the client's `/hosting/capabilities` said when discovery was loaded; `nil` when discovery names no
        /// capabilities, the source reads no URLs, or reading them failed.
        var capabilities: WOPIClientCapabilities?
    }

    /// Where the XML comes from.
    public nonisolated let source: DiscoverySource
    /// When to fetch again.
    public nonisolated let configuration: Configuration
    private let logger: Logger
    private let now: @Sendable () -> Date
    private var loaded: Loaded?
    private var lastAttempt: Date?
    private var lastError: DiscoveryError?
    private var fetching: Task<Void, Never>?

    /// Creates a client; nothing is fetched until the first question (or ``refresh()``).
    ///
    /// - Parameter now: the clock, for tests.
    public init(
        source: DiscoverySource, configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "wopikit.discovery"), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.source = source
        self.configuration = configuration
        self.logger = logger
        self.now = now
    }

    /// The current discovery: loaded on first use, fetched again once older than the refresh interval (the last
    /// good copy stays when that fails).
    ///
    /// - Throws: ``DiscoveryError`` when discovery was never loaded successfully.
    public func discovery() async throws(DiscoveryError) -> WOPIDiscovery {
        try await current().discovery
    }

    /// Fetches discovery now unless a fetch happened within the minimum interval, and returns the current copy.
    ///
    /// - Throws: ``DiscoveryError`` when discovery was never loaded successfully.
    @discardableResult
    public func refresh() async throws(DiscoveryError) -> WOPIDiscovery {
        await fetchIfAllowed()
        return try await current(refreshing: false).discovery
    }

    /// The action `name` (`view`, `edit`, `editnew`, `embedview`, …) for a file, by its extension or else by
    /// `progID`.
    ///
    /// - Throws: ``DiscoveryError`` with ``DiscoveryError/Code/noAction`` when discovery offers none, or when
    ///   discovery is unavailable.
    public func action(_ name: String, fileName: String, progID: String? = nil) async throws(DiscoveryError)
        -> DiscoveryActionMatch
    {
        let discovery = try await discovery()
        let ext = FileNameRules.split(fileName).extension
        guard
            let match = discovery.match(
                action: name, fileExtension: ext, progID: progID, zones: configuration.preferredZones)
        else {
            let offered = discovery.netZones.flatMap(\.apps).flatMap(\.actions)
                .filter { $0.fileExtension?.lowercased() == ext?.lowercased() }.map(\.name)
            throw DiscoveryError(
                .noAction,
                "The WOPI client's discovery (\(source)) has no \"\(name)\" action for "
                    + (ext.map { ".\($0) files" } ?? "files without an extension")
                    + (offered.isEmpty
                        ? "; it does not open this file type." : "; it offers: \(offered.joined(separator: ", ")).")
            )
        }
        return match
    }

    /// What the WOPI client says it can do (`/hosting/capabilities`, read with discovery and refreshed with it):
    /// `nil` when discovery names no capabilities (Microsoft 365), the source reads no URLs (``DiscoverySource/file(_:)``)
    /// or reading them failed (logged as a warning).
    ///
    /// - Throws: ``DiscoveryError`` when discovery was never loaded successfully.
    public func capabilities() async throws(DiscoveryError) -> WOPIClientCapabilities? {
        try await current().capabilities
    }

    /// The validator for discovery's current and old proof keys.
    ///
    /// - Throws: ``DiscoveryError`` when discovery is unavailable, has no proof key, or its key is unusable.
    public func proofKeyValidator() async throws(DiscoveryError) -> ProofKeyValidator {
        try await current().validator.get()
    }

    /// Fetches discovery again unless that happened within the minimum interval; `true` when a fetch succeeded.
    public func keysMayHaveRotated() async -> Bool {
        let before = loaded?.fetchedAt
        await fetchIfAllowed()
        return loaded?.fetchedAt != before && loaded != nil
    }

    // MARK: - Loading

    private func current(refreshing: Bool = true) async throws(DiscoveryError) -> Loaded {
        if refreshing {
            if let loaded {
                if now().timeIntervalSince(loaded.fetchedAt) >= configuration.refreshInterval { await fetchIfAllowed() }
            } else {
                await fetchIfAllowed()
            }
        }
        guard let loaded else {
            throw lastError
                ?? DiscoveryError(.fetchFailed, "Discovery (\(source)) has not been loaded yet.")
        }
        return loaded
    }

    private func fetchIfAllowed() async {
        if let fetching { return await fetching.value }
        if let lastAttempt, now().timeIntervalSince(lastAttempt) < configuration.minimumFetchInterval { return }
        lastAttempt = now()
        let task = Task { await self.fetch() }
        fetching = task
        await task.value
        fetching = nil
    }

    private func fetch() async {
        let data: Data
        do {
            data = try await source.fetch()
        } catch {
            fail(DiscoveryError(.fetchFailed, "Could not read discovery from \(source): \(error)", underlying: error))
            return
        }
        let discovery: WOPIDiscovery
        do {
            discovery = try WOPIDiscovery(xml: data)
        } catch {
            fail(
                DiscoveryError(.unreadable, "\(source) is not WOPI discovery XML: \(error.message)", underlying: error))
            return
        }
        for warning in discovery.warnings {
            logger.warning("Discovery entry skipped", metadata: ["source": "\(source)", "warning": "\(warning)"])
        }
        loaded = Loaded(
            discovery: discovery, validator: Self.validator(discovery, source), fetchedAt: now(),
            capabilities: await capabilities(of: discovery))
        lastError = nil
        logger.info(
            "Discovery loaded",
            metadata: [
                "source": "\(source)", "apps": "\(discovery.netZones.flatMap(\.apps).count)",
                "proofKey": "\(discovery.proofKey != nil)",
            ])
    }

    /// Reads the capabilities discovery names, when the source reads URLs.
    private func capabilities(of discovery: WOPIDiscovery) async -> WOPIClientCapabilities? {
        guard let url = discovery.capabilitiesURL, let fetchURL = source.fetchURL else { return nil }
        do {
            let capabilities = try WOPIClientCapabilities(json: try await fetchURL(url))
            logger.info(
                "WOPI client capabilities loaded",
                metadata: [
                    "product": "\(capabilities.productName ?? "-") \(capabilities.productVersion ?? "")",
                    "templates": "\(capabilities.hasTemplateSource ?? false)",
                ])
            return capabilities
        } catch {
            logger.warning(
                "The WOPI client's capabilities could not be read", metadata: ["url": "\(url)", "error": "\(error)"])
            return nil
        }
    }

    private func fail(_ error: DiscoveryError) {
        lastError = error
        logger.error(
            "Discovery fetch failed",
            metadata: ["error": "\(error.message)", "keeping": "\(loaded == nil ? "nothing" : "the last good copy")"])
    }

    private static func validator(_ discovery: WOPIDiscovery, _ source: DiscoverySource) -> Result<
        ProofKeyValidator, DiscoveryError
    > {
        guard let proofKey = discovery.proofKey else {
            return .failure(
                DiscoveryError(
                    .noProofKey,
                    "Discovery (\(source)) has no <proof-key> element, so WOPI requests cannot be checked. Enable "
                        + "proof keys in the WOPI client, or turn proof checking off (development only)."))
        }
        do {
            return .success(try ProofKeyValidator(discovery: proofKey))
        } catch {
            return .failure(DiscoveryError(.unusableProofKey, error.message, underlying: error))
        }
    }
}
