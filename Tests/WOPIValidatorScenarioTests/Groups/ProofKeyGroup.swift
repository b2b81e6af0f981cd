import Foundation

extension ValidatorGroup {
    /// `ProofKeys` (`OfficeOnline`): CheckFileInfo with the validator's `ProofKey` mutator. The host must accept
    /// the current key, a garbage old proof, a client ahead of its discovery (the current-key proof in
    /// `X-WOPI-ProofOld`) and behind it (the old-key proof in `X-WOPI-Proof`), and refuse with 500: both proofs
    /// garbage, a time stamp older than 20 minutes, and a garbage current proof next to an old proof made with the
    /// old key (Docs/wopi-protocol.md §12.4).
    static let proofKeys = ValidatorGroup(
        name: "ProofKeys", prerequisites: [Prerequisite.wopiValidator],
        cases: [
            proofCase("ProofKeyCurrentValid", ProofKeyMutation(), accepted: true),
            proofCase(
                "ProofKeyCurrentOldGarbage", ProofKeyMutation(mutateCurrent: true, mutateOld: true), accepted: false),
            proofCase("ProofKeyCurrentValidOldGarbage", ProofKeyMutation(mutateOld: true), accepted: true),
            proofCase("ProofKeyWacAheadOfHost", ProofKeyMutation(keyRelation: .ahead), accepted: true),
            proofCase("ProofKeyWacBehindHost", ProofKeyMutation(keyRelation: .behind), accepted: true),
            proofCase("WopiTimestampOlderThan20Min", ProofKeyMutation(timestamp: oldTimestamp), accepted: false),
            proofCase(
                "ProofKeyCurrentGarbageValidOldFromOldKey", ProofKeyMutation(mutateCurrent: true), accepted: false),
        ])

    /// The mutator's `Timestamp="2015-08-17T00:00:00Z"`.
    private static let oldTimestamp = Date(timeIntervalSince1970: 1_439_769_600)

    /// One CheckFileInfo with `mutation`: 200 when `accepted`, else the validator's 500.
    private static func proofCase(_ name: String, _ mutation: ProofKeyMutation, accepted: Bool) -> ValidatorCase {
        ValidatorCase(name, category: .officeOnline) { run in
            try await run.send(.checkFileInfo, expect: accepted ? [.ok] : [.status([500])], proofKey: mutation)
        }
    }
}
