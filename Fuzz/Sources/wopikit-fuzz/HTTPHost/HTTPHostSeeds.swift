import WOPIModels

/// The seed corpus of `http-host` (`Fuzz/Corpus/http-host/`), as scripts: every operation as a client sends it,
/// and the sequences that reach deeper (a lock's life, a chunked save, an upload session committed). Written by
/// `FUZZ_TARGET=http-host FUZZ_WRITE_SEEDS=Fuzz/Corpus/http-host .build-fuzz/debug/wopikit-fuzz`.
enum HTTPHostSeeds {
    static var all: [(name: String, script: HTTPScript)] {
        var seeds: [(name: String, script: HTTPScript)] = Operation.allCases.map { operation in
            ("op-\(operation)", HTTPScript(steps: [.request(ScriptedRequest(operation))]))
        }
        seeds += (sequences + regressions).map { name, steps in (name, HTTPScript(steps: steps)) }
        seeds += variants.map { name, variant, steps in (name, HTTPScript(variant: variant, steps: steps)) }
        return seeds
    }

    private static func request(
        _ operation: Operation, _ item: ItemChoice = .primary, headers: [HeaderChoice] = [],
        body: BodyChoice = .natural
    ) -> ScriptStep {
        .request(ScriptedRequest(operation, item: item, headers: headers, body: body))
    }

    private static let tenBytes = BodyChoice.raw(Array("0123456789".utf8))

    private static let sequences: [(String, [ScriptStep])] = [
        (
            "lock-life",
            [
                request(.lock), request(.getLock), request(.refreshLock), request(.putFile),
                request(.unlockAndRelock), request(.unlock, headers: [HeaderChoice(WOPIHeader.lock, .alternate)]),
            ]
        ),
        (
            "lock-expires",
            [request(.lock), .advanceClock(.halfHour), request(.putFile), request(.checkFileInfo)]
        ),
        (
            "upload-session",
            [
                request(.createUploadSession), request(.updateUploadSession), request(.getSequenceNumber),
                request(
                    .putChunkedFile,
                    body: .frames(
                        FramePlan(
                            message: .planned(
                                MessagePlan(
                                    streams: [StreamPlan(references: [ChunkReference(.script, 0)])],
                                    commitsUploadSession: true)),
                            chunks: [], ending: .endFrame))),
            ]
        ),
        (
            "upload-session-raw",
            [
                request(.createUploadSession), request(.updateUploadSession, body: tenBytes),
                request(
                    .updateUploadSession,
                    headers: [
                        HeaderChoice(WOPIHeader.contentRangeOffset, .natural),
                        HeaderChoice(WOPIHeader.contentRangeLength, .natural),
                    ], body: tenBytes),
            ]
        ),
        (
            "upload-session-expires",
            [request(.createUploadSession), .advanceClock(.halfHour), request(.updateUploadSession)]
        ),
        (
            "chunked-save-zip",
            [
                request(.getChunkedFile, .secondary), request(.getSequenceNumber, .secondary),
                request(
                    .putChunkedFile, .secondary,
                    body: .frames(
                        FramePlan(
                            message: .planned(
                                MessagePlan(
                                    streams: [
                                        StreamPlan(
                                            scheme: .zip,
                                            references: [
                                                ChunkReference(.seed, 1), ChunkReference(.body, 0),
                                                ChunkReference(.seed, 3),
                                            ]),
                                        StreamPlan(stream: .alternate, references: [ChunkReference(.body, 0)]),
                                    ], property: 0)),
                            chunks: [ChunkChoice(.bytes(Array("PK\u{3}\u{4} new entry".utf8)))], ending: .endFrame))),
                request(.getChunkedFile, .secondary), request(.getChunks, .secondary),
            ]
        ),
        (
            "get-chunks-ranges",
            [
                request(
                    .getChunks, .secondary,
                    body: .frames(
                        FramePlan(
                            message: .planned(
                                MessagePlan(streams: [
                                    StreamPlan(
                                        scheme: .zip,
                                        references: [
                                            ChunkReference(.seed, 1, offset: 2, length: 4),
                                            ChunkReference(.seed, 2, offset: 4, length: 3),
                                        ])
                                ])), chunks: [], ending: .endFrame)))
            ]
        ),
        (
            "coauth-life",
            [
                request(.getCoauthLock), request(.getCoauthTable), request(.refreshCoauthLock),
                request(.putChunkedFile, headers: [HeaderChoice(WOPIHeader.coauthLockID, .natural)]),
                request(.unlockCoauthLock),
            ]
        ),
        (
            "ranges",
            [
                request(.getFile, headers: [HeaderChoice("Range", .natural)]),
                request(.getFile, headers: [HeaderChoice("Range", .alternate), HeaderChoice("If-Range", .natural)]),
                request(.getFromFileURL, headers: [HeaderChoice("Range", .hostile("bytes=4-4"))]),
            ]
        ),
        (
            "create-and-list",
            [
                request(.createChildFile), request(.checkFileInfo, .created), request(.createChildContainer),
                request(.enumerateChildren, .created), request(.deleteContainer, .created), request(.enumerateChildren),
                request(.putRelativeFile, headers: [HeaderChoice(WOPIHeader.relativeTarget, .natural)]),
                request(.renameFile, .created),
            ]
        ),
        (
            "shared",
            [
                request(.checkFileInfo, .otherUsers), request(.enumerateChildren, .sharedWithMe),
                request(.enumerateFileAncestors, .otherUsers), request(.getFileShareURL),
            ]
        ),
        (
            "put-limits",
            [
                request(.putFile, body: .large(0)), request(.putFile, body: .large(1)),
                request(.getFile, headers: [HeaderChoice(WOPIHeader.maxExpectedSize, .alternate)]),
            ]
        ),
        (
            "bootstrapper",
            [
                request(.bootstrap), request(.bootstrapGetNewAccessToken),
                request(.bootstrapGetWopiSrc, headers: [HeaderChoice(WOPIHeader.hostNativeFileName, .alternate)]),
            ]
        ),
        (
            "free-form",
            [
                .request(
                    ScriptedRequest(
                        route: .freeForm(
                            FreeFormRoute(method: .post, endpoint: .fileContents, override: .known(WOPIOverride.lock))))
                ),
                .request(
                    ScriptedRequest(
                        route: .freeForm(FreeFormRoute(method: .put, endpoint: .container, override: .text("PUT"))))),
            ]
        ),
        (
            "collabora-save",
            [
                request(.checkFileInfo),
                request(
                    .putFile,
                    headers: [
                        HeaderChoice("X-COOL-WOPI-Timestamp", .natural),
                        HeaderChoice("X-COOL-WOPI-IsAutosave", .natural),
                        HeaderChoice(WOPIHeader.editors, .natural),
                    ]),
            ]
        ),
    ]

    /// Inputs that stopped the host before issue 49's fixes, kept so every smoke pass replays them.
    private static let regressions: [(String, [ScriptStep])] = [
        // ByteRangeRequest: `end + 1` trapped for an end of Int64.max.
        (
            "regression-range-int64-max",
            [request(.getFile, headers: [HeaderChoice("Range", .hostile("bytes=0-9223372036854775807"))])]
        ),
        // UpdateUploadSession: `session.length + length` trapped for a length near Int64.max once the session held bytes.
        (
            "regression-upload-length-int64-max",
            [
                request(.createUploadSession), request(.updateUploadSession, body: tenBytes),
                request(
                    .updateUploadSession,
                    headers: [HeaderChoice(WOPIHeader.contentRangeLength, .hostile("9223372036854775807"))],
                    body: tenBytes),
            ]
        ),
    ]

    private static var proofKeys: HostVariant {
        var variant = HostVariant()
        variant.proofKeys = true
        return variant
    }

    private static var urlsFromRequest: HostVariant {
        var variant = HostVariant()
        variant.urlsFromRequest = true
        variant.shareLinks = false
        return variant
    }

    private static let variants: [(String, HostVariant, [ScriptStep])] = [
        ("proof-keys", proofKeys, [request(.checkFileInfo), request(.getFile), request(.lock)]),
        // Bootstrap without a token on a host without a public URL: a Host or X-Forwarded-Proto that is no URL made
        // the challenge's endpoints unparsable, a 500 instead of the 401 (found by this target; issue 49).
        (
            "regression-bootstrap-challenge-hostile-authority",
            urlsFromRequest,
            [
                .request(
                    ScriptedRequest(
                        .bootstrap, credential: .none, headers: [HeaderChoice(FuzzHeaders.host, .hostile("a b"))])),
                .request(
                    ScriptedRequest(
                        .bootstrap, credential: .none, headers: [HeaderChoice("X-Forwarded-Proto", .hostile("a b"))])),
            ]
        ),
        (
            "urls-from-request",
            urlsFromRequest,
            [
                request(.checkFileInfo, headers: [HeaderChoice(FuzzHeaders.host, .alternate)]),
                request(.bootstrap, headers: [HeaderChoice("X-Forwarded-Proto", .alternate)]),
                request(.getFileShareURL),
            ]
        ),
    ]
}
