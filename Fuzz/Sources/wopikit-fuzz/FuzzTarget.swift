/// One parser under test: its name (`FUZZ_TARGET`, and the folder of its seed corpus in `Fuzz/Corpus/`) and the
/// code that feeds it one input.
struct FuzzTarget: Sendable {
    var name: String
    var run: @Sendable (FuzzInput) -> Void

    /// Every target, in the order `make fuzz` runs them.
    static let all: [FuzzTarget] = [
        .utf7, .challenge, .urlSchemes, .discovery, .proofKey, .accessToken, .formQuery, .officeURL, .appToApp,
        .wopiRoute, .checkFileInfo, .containerJSON, .tokenResponse, .frames, .zipChunks,
    ]
}
