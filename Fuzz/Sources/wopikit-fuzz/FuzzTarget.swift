/// One parser under test: its name (`FUZZ_TARGET`, and the folder of its seed corpus in `Fuzz/Corpus/`) and the
/// code that feeds it one input.
struct FuzzTarget: Sendable {
    var name: String
    var run: @Sendable (FuzzInput) -> Void
    /// Seeds the target writes itself (`FUZZ_WRITE_SEEDS=FOLDER`), for inputs of a structure no one writes by hand.
    var seeds: @Sendable () -> [(name: String, bytes: [UInt8])] = { [] }

    /// Every target, in the order `make fuzz` runs them.
    static let all: [FuzzTarget] = [
        .utf7, .challenge, .urlSchemes, .discovery, .proofKey, .accessToken, .formQuery, .officeURL, .appToApp,
        .wopiRoute, .checkFileInfo, .containerJSON, .tokenResponse, .frames, .zipChunks, .httpHost,
    ]
}
