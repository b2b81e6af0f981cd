import Foundation
import WOPIModels

/// The validator's `ProofKey` mutator (facts from its `ProofKeyMutator.cs`): what it does to the proof headers of
/// one request in a signed run.
struct ProofKeyMutation: Sendable {
    /// How the client's keys relate to the ones the host learnt from discovery.
    enum KeyRelation: Sendable {
        /// Both know the same keys: `mutateCurrent` / `mutateOld` apply.
        case synced
        /// The client has rotated, the host has not refetched discovery: `X-WOPI-ProofOld` carries the proof made
        /// with the current key and `X-WOPI-Proof` is garbage.
        case ahead
        /// The host has the new keys, the machine making the request does not: `X-WOPI-Proof` carries the proof
        /// made with the old key and `X-WOPI-ProofOld` is garbage.
        case behind
    }

    static let proofHeader = "X-WOPI-Proof"
    static let proofOldHeader = "X-WOPI-ProofOld"
    static let timestampHeader = "X-WOPI-TimeStamp"
    /// The mutator's "known-invalid" proof: base64 of `INVALID`.
    static let invalidProof = Data("INVALID".utf8).base64EncodedString()

    var mutateCurrent = false
    var mutateOld = false
    var keyRelation = KeyRelation.synced
    /// A fixed `X-WOPI-TimeStamp`: the headers are signed again at that time before the other mutations.
    var timestamp: Date?
    /// Ours, not the validator's: send no proof headers at all (the host must refuse the request).
    var unsigned = false

    /// A request without proof headers.
    static let omitted = ProofKeyMutation(unsigned: true)

    /// The proof headers of a request to `url` carrying `token`, signed by `keys` and mutated; none without keys.
    func headers(signedBy keys: ValidatorProofKeys?, url: String, token: String) throws -> [(String, String)] {
        guard let keys, !unsigned else { return [] }
        return apply(to: try keys.headers(url: url, token: token, ticks: ticks(now: Date())))
    }

    /// The ticks to sign at: the mutator's fixed time stamp, or now.
    func ticks(now: Date) -> Int64 { DotNetTicks.ticks(from: timestamp ?? now) }

    /// Applies the mutation to correctly signed `headers`.
    func apply(to headers: [(String, String)]) -> [(String, String)] {
        var proof = Self.value(Self.proofHeader, in: headers)
        var proofOld = Self.value(Self.proofOldHeader, in: headers)
        switch keyRelation {
        case .synced:
            if mutateCurrent { proof = Self.invalidProof }
            if mutateOld { proofOld = Self.invalidProof }
        case .behind:
            proof = proofOld
            proofOld = Self.invalidProof
        case .ahead:
            proofOld = proof
            proof = Self.invalidProof
        }
        return headers.map { name, value in
            switch name {
            case Self.proofHeader: (name, proof)
            case Self.proofOldHeader: (name, proofOld)
            default: (name, value)
            }
        }
    }

    private static func value(_ name: String, in headers: [(String, String)]) -> String {
        headers.first { $0.0 == name }?.1 ?? ""
    }
}
