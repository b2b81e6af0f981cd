import HTTPTypes
import Logging
import WOPIHTTPEdge

extension WOPIHost {
    /// Whether every WOPI request must carry the client's verified proof-key signature: then a request that passed
    /// comes from the editor itself, and a commenter, reviewer or secure viewer gets what the editor keeps them to
    /// (``ItemAccess/isVerifiedEditor``). Off without ``WOPIHostConfiguration/proofKeySource`` and with
    /// ``WOPIHostConfiguration/proofKeyCheckDisabled``: those roles then open read-only.
    public var checksProofs: Bool { configuration.proofKeySource != nil && !configuration.proofKeyCheckDisabled }

    /// `access` as the editor opened from the host's pages gets it: ``ItemAccess/throughVerifiedEditor`` when the
    /// host ``checksProofs``, so a page offers a commenter the edit action exactly when the editor may save.
    public func accessInEditor(_ access: ItemAccess) -> ItemAccess {
        checksProofs ? access.throughVerifiedEditor : access
    }

    /// The proof-key step of every WOPI request when ``WOPIHostConfiguration/proofKeySource`` is set: throws `500`
    /// with `X-WOPI-ServerError` naming the failed check (Docs/wopi-protocol.md §12.4), and logs it with the
    /// request's correlation ID (in `logger`'s metadata).
    ///
    /// A signature that does not verify with the keys in hand, or verifies only through the old key, asks the source
    /// to fetch discovery again (rate-limited there); after a fresh fetch the request is checked once more, so a key
    /// rotation is picked up without a restart.
    func verifyProof(_ request: WOPIRequest, logger: Logger) async throws {
        guard let source = configuration.proofKeySource, checksProofs else { return }
        try await TracedWork.proofKey.traced("proof_key.verify") {
            try await verifyProof(request, with: source, logger: logger)
        }
    }

    private func verifyProof(_ request: WOPIRequest, with source: any ProofKeySource, logger: Logger) async throws {
        let origin = publicBase(for: request)
        let proofRequest = ProofKeyRequest(
            url: request.url(origin: origin), headerFields: request.headers, accessToken: request.accessToken)
        var validator: ProofKeyValidator
        do {
            validator = try await source.proofKeyValidator()
        } catch {
            logger.error("Proof keys unavailable: request refused", metadata: ["error": "\(error)"])
            metrics.proofKeyFailed("keysUnavailable")
            throw WOPIHTTPError(
                .internalServerError, "Proof-key check failed (keysUnavailable): the host has no proof keys: \(error)")
        }
        var result = validator.validate(proofRequest, now: now())
        if Self.keysMayHaveRotated(result), await source.keysMayHaveRotated() {
            if case .invalid = result, let fresh = try? await source.proofKeyValidator() {
                validator = fresh
                result = validator.validate(proofRequest, now: now())
            }
        }
        guard case .invalid(let rejection) = result else { return }
        metrics.proofKeyFailed(rejection.code.description)
        await audit(
            AuditEvent(
                .proofFailure, at: now(), address: request.remoteAddress,
                details: ["check": rejection.code.description, "operation": "\(request.method) \(request.path)"]))
        logger.warning(
            "Proof-key check failed: request refused",
            metadata: [
                "check": "\(rejection.code)", "reason": "\(rejection.message)", "method": "\(request.method)",
                "path": "\(request.path)",
            ])
        throw WOPIHTTPError(.internalServerError, "Proof-key check failed (\(rejection.code)): \(rejection.message)")
    }

    private static func keysMayHaveRotated(_ result: ProofKeyValidationResult) -> Bool {
        switch result {
        case .valid: false
        case .validWithOldKey: true
        case .invalid(let rejection): rejection.code == .signatureMismatch
        }
    }
}
