import WOPIModels

/// The `WopiCoauth` category's incremental-file-transfer groups (facts from `TestCases.xml`):
/// IncrementalFileTransferErrorCases, …WithFullFileChunkingScheme and …WithZipChunkingScheme.
extension ValidatorGroup {
    private static let prerequisites = [
        Prerequisite.wopiValidator, Prerequisite.supportsCoauth, Prerequisite.supportsChunkedFileTransfer,
    ]

    static let incrementalFileTransferErrorCases = ValidatorGroup(
        name: "IncrementalFileTransferErrorCases", prerequisites: prerequisites,
        cases: TransferCases.errors.map { $0.inCategory(.wopiCoauth) })

    static let incrementalFileTransferWithFullFile = ValidatorGroup(
        name: "IncrementalFileTransferWithFullFileChunkingScheme", prerequisites: prerequisites,
        cases: TransferCases.fullFile.map { $0.inCategory(.wopiCoauth) })

    static let incrementalFileTransferWithZip = ValidatorGroup(
        name: "IncrementalFileTransferWithZipChunkingScheme", prerequisites: prerequisites,
        cases: TransferCases.zip.map { $0.inCategory(.wopiCoauth) })
}

extension ValidatorGroup {
    /// The `WopiCoauth` category's six groups, in `TestCases.xml`'s order.
    static let coauthCategory: [ValidatorGroup] = [
        .coauthLocks, .incrementalFileTransferErrorCases, .incrementalFileTransferWithFullFile,
        .incrementalFileTransferWithZip, .renameFileWithCoauthLock, .coauthLockExpiration,
    ]
}

extension Prerequisite {
    /// `SupportsChunkedFileTransferPrereq`: a CheckFileInfo (its validators are commented out in `TestCases.xml`).
    static let supportsChunkedFileTransfer = ValidatorCase("SupportsChunkedFileTransferPrereq") { run in
        try await run.send(.checkFileInfo)
    }
}

/// The cases, and `RenameFile.ClientPresentsCoauthLockWithHostCoauthLock.Success` of the rename group.
enum TransferCases {
    /// Who holds the file while a case writes it.
    enum Holder {
        case coauth, exclusive, wopi, nobody

        var request: WopiOperation? {
            switch self {
            case .coauth: TransferCases.coauthLock("Client_1_CoauthLock", "Coauth")
            case .exclusive: TransferCases.coauthLock("Client_1_CoauthExclusiveLock", "CoauthExclusive")
            case .wopi: .lock("Client_1_Lock")
            case .nobody: nil
            }
        }

        var release: WopiOperation? {
            switch self {
            case .coauth: .unlockCoauthLock(id: "Client_1_CoauthLock")
            case .exclusive: .unlockCoauthLock(id: "Client_1_CoauthExclusiveLock")
            case .wopi: .unlock("Client_1_Lock")
            case .nobody: nil
            }
        }

        /// The PutChunkedFile of `streams` by this holder.
        func put(_ run: CaseRun, _ streams: [ChunkedStream], properties: [ContentProperty] = []) async throws {
            let lock: String? = if case .wopi = self { "Client_1_Lock" } else { nil }
            let coauth: String? =
                switch self {
                case .coauth: "Client_1_CoauthLock"
                case .exclusive: "Client_1_CoauthExclusiveLock"
                default: nil
                }
            let before = try TransferCases.savedSequence(run)
            try await run.send(
                .putChunkedFile(
                    sequence: String(before), lock: lock, coauthLockID: coauth, properties: properties,
                    streams: streams),
                expect: [.ok, .sequenceNumber(after: before, orEqual: false), TransferCases.itemVersion],
                save: TransferCases.saveSequence)
        }
    }

    static let itemVersion = ResponseRule.header("X-WOPI-ItemVersion")
    static let saveSequence = [("Sequence", "header:X-WOPI-SequenceNumber")]
    static let emptyText = ChunkedContent.text("")
    static let empty = ChunkedContent.zeroByteOfficeDocument

    static func coauthLock(_ id: String, _ type: String) -> WopiOperation {
        .getCoauthLock(id: id, type: type, timeout: 600, metadata: id)
    }

    static func savedSequence(_ run: CaseRun) throws -> Int64 {
        guard let value = Int64(try run.saved("Sequence")) else { return try run.fail("the saved sequence number") }
        return value
    }

    /// The first request of every case: a GetChunkedFile of MainContent, saving the sequence number.
    static func start(_ run: CaseRun, known: ChunkedContent) async throws {
        try await run.send(
            .getChunkedFile(properties: [], filters: [.main(known: known)]), expect: [.ok, itemVersion],
            save: saveSequence)
    }

    /// A GetChunkedFile checked by `check` (and, with `sequence`, the sequence number at least the saved one).
    static func download(
        _ run: CaseRun, _ filters: [ChunkedFilter], properties: [String] = [], sequence: Bool = true,
        _ check: FramesCheck
    ) async throws {
        var rules: [ResponseRule] = [.ok, itemVersion, .frames(check)]
        if sequence { rules.append(.sequenceNumber(after: try savedSequence(run), orEqual: true)) }
        try await run.send(.getChunkedFile(properties: properties, filters: filters), expect: rules)
    }

    /// A case: the first GetChunkedFile, the holder's lock, `steps`, and the lock released in cleanup.
    static func transfer(
        _ name: String, known: ChunkedContent, holder: Holder = .coauth, thenCleanup extra: WopiOperation? = nil,
        _ steps: @escaping @Sendable (CaseRun) async throws -> Void
    ) -> ValidatorCase {
        ValidatorCase(
            name,
            requests: { run in
                try await start(run, known: known)
                if let request = holder.request { try await run.send(request) }
                try await steps(run)
            },
            cleanup: { run in
                if let release = holder.release { await run.cleanup(release) }
                if let extra { await run.cleanup(extra) }
            })
    }

    /// `Lock`, `PutFile` of `document`, `Unlock`: the content replaced by another path.
    static func putFile(_ run: CaseRun, _ document: Document) async throws {
        try await run.send(.lock("LockString"))
        try await run.send(.putFile(lock: "LockString", document: document))
        try await run.send(.unlock("LockString"))
    }

    /// The expectation that both streams are `main` and `alternate`, known from `known`.
    static func both(_ main: ChunkedContent, _ alternate: ChunkedContent, known: ChunkedContent, blobs: Int? = nil)
        -> FramesCheck
    {
        FramesCheck(
            blobCount: blobs,
            streams: [
                .init(id: "MainContent", scheme: main.scheme, content: (known, main)),
                .init(id: "Alternate", scheme: alternate.scheme, content: (known, alternate)),
            ])
    }

    // MARK: IncrementalFileTransferErrorCases

    static let sample = ChunkedStream.main(.text("SampleTextVersion-1"), lastKnown: .text(""))

    static func refusedPut(
        _ run: CaseRun, lock: String? = nil, coauth: String? = nil, sequence: String? = nil, _ rules: [ResponseRule]
    ) async throws {
        let sequence = try sequence ?? run.saved("Sequence")
        try await run.send(
            .putChunkedFile(sequence: sequence, lock: lock, coauthLockID: coauth, properties: [], streams: [sample]),
            expect: rules)
    }

    static let mechanismWOPILock = ResponseRule.header("X-WOPI-ConflictingMechanism", expected: "WOPI-Lock")
    static let mechanismExclusive = ResponseRule.header(
        "X-WOPI-ConflictingMechanism", expected: "WOPI-CoauthExclusiveLock")

    static let errors: [ValidatorCase] = [
        ValidatorCase("IncrementalFileTransfer.FileNotLockedAndFileSizeNotZero.FailWithConflict409") { run in
            try await putFile(run, .wordSimpleDocument)
            try await start(run, known: emptyText)
            try await refusedPut(run, [.status([409])])
        },
        transfer(
            "IncrementalFileTransfer.ClientCoauthLockMismatchWithHostCoauthLock.FailWithConflict409", known: emptyText
        ) { run in
            try await refusedPut(run, coauth: "Client_2_CoauthLock", [.status([409])])
        },
        transfer(
            "IncrementalFileTransfer.ClientCoauthLockAndWopiLockSetTogether.FailWithBadRequest400", known: emptyText
        ) { run in
            try await refusedPut(run, lock: "Client_1_WopiLock", coauth: "Client_1_CoauthLock", [.status([400])])
        },
        transfer(
            "IncrementalFileTransfer.ClientWopiLockMismatchWithHostWopiLock.FailWithConflict409", known: emptyText,
            holder: .wopi
        ) { run in
            try await refusedPut(
                run, lock: "Client_2_Lock",
                [.status([409]), mechanismWOPILock, .header("X-WOPI-Lock", expected: "Client_1_Lock")])
        },
        transfer(
            "IncrementalFileTransfer.ClientCoauthLockMismatchWithHostWopiLock.FailWithConflict409", known: emptyText,
            holder: .wopi
        ) { run in
            try await refusedPut(
                run, coauth: "Client_1_Lock",
                [.status([409]), mechanismWOPILock, .header("X-WOPI-Lock", expected: "Client_1_Lock")])
        },
        ValidatorCase(
            "IncrementalFileTransfer.ClientCoauthLockMismatchWithHostCoauthExclusiveLock.FailWithConflict409",
            requests: { run in
                try await start(run, known: emptyText)
                try await run.send(coauthLock("Client_1_CoauthExclusiveLock", "CoauthExclusive"))
                try await run.send(coauthLock("Client_2_CoauthLock", "Coauth"))
                try await refusedPut(run, coauth: "Client_2_CoauthLock", [.status([409]), mechanismExclusive])
            },
            cleanup: { run in
                await run.cleanup(.unlockCoauthLock(id: "Client_1_CoauthExclusiveLock"))
                await run.cleanup(.unlockCoauthLock(id: "Client_2_CoauthLock"))
            }),
        transfer(
            "IncrementalFileTransfer.ClientWopiLockMismatchWithHostCoauthExclusiveLock.FailWithConflict409",
            known: emptyText, holder: .exclusive
        ) { run in
            try await refusedPut(run, lock: "Client_1_Lock", [.status([409]), mechanismExclusive])
        },
        transfer(
            "IncrementalFileTransfer.ClientWopiLockMismatchWithHostCoauthLock.FailWithConflict409", known: emptyText
        ) { run in
            try await refusedPut(run, lock: "Client_1_Lock", [.status([409])])
        },
        ValidatorCase(
            "IncrementalFileTransfer.ClientSequenceNumberMismatchWithHost.PreconditionFail412",
            requests: { run in
                try await run.send(coauthLock("Client_1_CoauthLock", "Coauth"))
                try await refusedPut(
                    run, coauth: "Client_1_CoauthLock", sequence: "0",
                    [.header("X-WOPI-SequenceNumber"), .status([412])])
            }, cleanup: { run in await run.cleanup(.unlockCoauthLock(id: "Client_1_CoauthLock")) }),
    ]

    // MARK: IncrementalFileTransferWithFullFileChunkingScheme

    static let text1 = ChunkedContent.text("SampleTextVersion-1")
    static let alt1 = ChunkedContent.text("Alt_SampleTextVersion-1")
    static let bothText = [FullFile.main, FullFile.alternate]

    enum FullFile {
        static let main = ChunkedFilter.main(known: emptyText)
        static let alternate = ChunkedFilter.alternate(known: emptyText)
    }

    static func textUpload(_ name: String, holder: Holder) -> ValidatorCase {
        transfer(name, known: emptyText, holder: holder) { run in
            try await holder.put(run, [.main(text1, lastKnown: emptyText), .alternate(alt1, lastKnown: emptyText)])
            try await download(run, bothText, both(text1, alt1, known: emptyText))
        }
    }

    static let properties = [
        ContentProperty(name: "name1", value: "value1", retention: .keepOnContentChange),
        ContentProperty(name: "name2", value: "value2", retention: .deleteOnContentChange),
    ]

    /// PutChunkedFile with properties, then PutFile: the `DeleteOnContentChange` property is gone.
    static func propertiesCleanedUp(_ name: String, known: ChunkedContent, stream: ChunkedStream, filter: ChunkedFilter)
        -> ValidatorCase
    {
        transfer(name, known: known) { run in
            try await Holder.coauth.put(run, [stream], properties: properties)
            let names = properties.map(\.name)
            let main = FramesCheck.Stream(id: "MainContent", scheme: stream.new.scheme)
            try await download(
                run, [filter], properties: names,
                FramesCheck(streams: [main], properties: properties.map { .init(name: $0.name, expected: $0) }))
            try await run.send(.unlockCoauthLock(id: "Client_1_CoauthLock"))
            try await putFile(run, .wordSimpleDocument)
            try await download(
                run, [filter], properties: names, sequence: false,
                FramesCheck(
                    streams: [], properties: [.init(name: "name1", expected: properties[0]), .init(name: "name2")]))
        }
    }

    static let fullFile: [ValidatorCase] = [
        textUpload("IncrementalFileTransfer.FullFile.UploadWithCoauthLock.Success", holder: .coauth),
        textUpload("IncrementalFileTransfer.FullFile.UploadWithCoauthExclusiveLock.Success", holder: .exclusive),
        textUpload("IncrementalFileTransfer.FullFile.UploadWithWopiLock.Success", holder: .wopi),
        transfer("IncrementalFileTransfer.FullFile.DeltaUploadsAndFullDownload.Success", known: emptyText) { run in
            let text2 = ChunkedContent.text("SampleTextVersion-2")
            let alt2 = ChunkedContent.text("Alt_SampleTextVersion-2")
            try await Holder.coauth.put(
                run, [.main(text1, lastKnown: emptyText), .alternate(alt1, lastKnown: emptyText)])
            try await Holder.coauth.put(run, [.main(text2, lastKnown: text1), .alternate(alt2, lastKnown: alt1)])
            try await download(run, bothText, both(text2, alt2, known: emptyText))
        },
        ValidatorCase("IncrementalFileTransfer.FullFile.FileNotLockedAndFileSizeZero.Success") { run in
            try await putFile(run, .zeroByteFile)
            try await start(run, known: emptyText)
            try await Holder.nobody.put(
                run, [.main(text1, lastKnown: emptyText), .alternate(alt1, lastKnown: emptyText)])
            try await download(run, bothText, both(text1, alt1, known: emptyText))
        },
        ValidatorCase("IncrementalFileTransfer.FullFile.DownloadUnexistedStreamShouldReturnEmptyStream.Success") {
            run in
            try await putFile(run, .wordSimpleDocument)
            try await download(
                run, bothText, sequence: false,
                FramesCheck(streams: [.init(id: "Alternate", scheme: .zip, content: (empty, empty))]))
        },
        transfer("IncrementalFileTransfer.FullFile.UploadSubsetOfFileStreams.Success", known: emptyText) { run in
            try await Holder.coauth.put(run, [.main(text1, lastKnown: emptyText)])
            try await Holder.coauth.put(run, [.alternate(alt1, lastKnown: emptyText)])
            try await download(run, bothText, both(text1, alt1, known: emptyText))
        },
        propertiesCleanedUp(
            "IncrementalFileTransfer.FullFile.PutChunkedFileWithContentPropertiesAndPutFile.SuccessWithContentPropertyCleanedUp",
            known: emptyText, stream: .main(text1, lastKnown: emptyText), filter: FullFile.main),
        transfer("IncrementalFileTransfer.FullFile.DownloadWithLastZipChunk.Success", known: emptyText) { run in
            try await Holder.coauth.put(run, [.main(text1, lastKnown: emptyText)])
            try await download(
                run, [.main(.lastZipChunk, known: empty)],
                FramesCheck(blobCount: 0, streams: [.init(id: "MainContent", scheme: .fullFile)]))
        },
    ]

    // MARK: IncrementalFileTransferWithZipChunkingScheme

    enum Zip {
        static let main = ChunkedFilter.main(known: empty)
        static let alternate = ChunkedFilter.alternate(known: empty)
        static let both = [main, alternate]
    }

    static let main1 = ChunkedContent.excelMain(version: 1)
    static let main2 = ChunkedContent.excelMain(version: 2)
    static let altZip1 = ChunkedContent.excelAlternate(version: 1)
    static let altZip2 = ChunkedContent.excelAlternate(version: 2)
    static let zipV1 = [ChunkedStream.main(main1, lastKnown: empty), .alternate(altZip1, lastKnown: empty)]
    static let zipV2 = [ChunkedStream.main(main2, lastKnown: main1), .alternate(altZip2, lastKnown: altZip1)]

    static func zipUpload(_ name: String, holder: Holder) -> ValidatorCase {
        transfer(name, known: empty, holder: holder) { run in
            try await holder.put(run, zipV1)
            try await download(run, Zip.both, both(main1, altZip1, known: empty))
        }
    }

    static func zipDownload(_ name: String, _ chunks: ChunksToReturn, blobs: Int) -> ValidatorCase {
        transfer(name, known: empty) { run in
            try await Holder.coauth.put(run, zipV1)
            try await download(
                run, [.main(chunks, known: empty), .alternate(chunks, known: empty)],
                FramesCheck(
                    blobCount: blobs,
                    streams: [.init(id: "MainContent", scheme: .zip), .init(id: "Alternate", scheme: .zip)]))
        }
    }

    static func zipDelta(_ name: String, knownMain: ChunkedContent, knownAlternate: ChunkedContent, blobs: Int?)
        -> ValidatorCase
    {
        transfer(name, known: empty) { run in
            try await Holder.coauth.put(run, zipV1)
            try await Holder.coauth.put(run, zipV2)
            try await download(
                run, [.main(known: knownMain), .alternate(known: knownAlternate)],
                FramesCheck(
                    blobCount: blobs,
                    streams: [
                        .init(id: "MainContent", scheme: .zip, content: (knownMain, main2)),
                        .init(id: "Alternate", scheme: .zip, content: (knownAlternate, altZip2)),
                    ]))
        }
    }

    static let zip: [ValidatorCase] = [
        zipUpload("IncrementalFileTransfer.Zip.UploadWithCoauthLock.Success", holder: .coauth),
        zipDownload("IncrementalFileTransfer.Zip.DownloadWithNoneChunksToReturn.Success", .none, blobs: 0),
        zipDownload("IncrementalFileTransfer.Zip.DownloadWithLastZipChunk.Success", .lastZipChunk, blobs: 2),
        transfer(
            "IncrementalFileTransfer.Zip.DownloadWithZipAndHostReturnsFullFileDueToNonZipArchive.Success", known: empty
        ) { run in
            let alt = ChunkedContent.text("Alt-SampleTextVersion-1")
            try await Holder.coauth.put(
                run, [.main(text1, lastKnown: emptyText), .alternate(alt, lastKnown: emptyText)])
            try await download(run, Zip.both, both(text1, alt, known: emptyText))
        },
        transfer(
            "IncrementalFileTransfer.Zip.DownloadFullFileAndHostReturnsZipDueToContentEligibleForZip.Success",
            known: empty
        ) { run in
            try await Holder.coauth.put(run, zipV1)
            try await download(run, bothText, both(main1, altZip1, known: empty))
        },
        zipUpload("IncrementalFileTransfer.Zip.UploadWithCoauthExclusiveLock.Success", holder: .exclusive),
        zipUpload("IncrementalFileTransfer.Zip.UploadWithWopiLock.Success", holder: .wopi),
        zipDelta(
            "IncrementalFileTransfer.Zip.DeltaUploadsAndFullDownload.Success", knownMain: empty, knownAlternate: empty,
            blobs: nil),
        zipDelta(
            "IncrementalFileTransfer.Zip.DeltaUploadsAndDeltaDownloadZeroBlobs.Success", knownMain: main2,
            knownAlternate: altZip2, blobs: 0),
        zipDelta(
            "IncrementalFileTransfer.Zip.DeltaUploadsAndDeltaDownloadNonZeroBlobs.Success", knownMain: main1,
            knownAlternate: altZip1, blobs: 18),
        ValidatorCase("IncrementalFileTransfer.Zip.FileNotLockedAndFileSizeZero.Success") { run in
            try await putFile(run, .zeroByteFile)
            try await start(run, known: empty)
            try await Holder.nobody.put(run, zipV1)
            try await download(run, Zip.both, both(main1, altZip1, known: empty))
        },
        ValidatorCase("IncrementalFileTransfer.Zip.DownloadUnexistedStreamShouldReturnEmptyStream.Success") { run in
            try await putFile(run, .wordSimpleDocument)
            try await download(
                run, Zip.both, sequence: false,
                FramesCheck(streams: [.init(id: "Alternate", scheme: .zip, content: (empty, empty))]))
        },
        transfer("IncrementalFileTransfer.Zip.UploadSubsetOfFileStreams.Success", known: empty) { run in
            try await Holder.coauth.put(run, [zipV1[0]])
            try await Holder.coauth.put(run, [zipV1[1]])
            try await download(run, Zip.both, both(main1, altZip1, known: empty))
        },
        propertiesCleanedUp(
            "IncrementalFileTransfer.Zip.PutChunkedFileWithContentPropertiesAndPutFile.SuccessWithContentPropertyCleanedUp",
            known: empty, stream: zipV1[0], filter: Zip.main),
    ]

    // MARK: RenameFileWithCoauthLockSupported

    /// As the port's other rename cases, the file gets its name back afterwards.
    static let renameKeepsContent = transfer(
        "RenameFile.ClientPresentsCoauthLockWithHostCoauthLock.Success", known: empty,
        thenCleanup: .renameFileCoauth(name: "test", lock: nil, coauthLockID: nil)
    ) { run in
        let name = "RenameFile_ClientPresentsCoauthLockWithHostCoauthLock"
        try await Holder.coauth.put(run, [.main(.wordMain, lastKnown: empty)])
        try await run.send(
            .renameFileCoauth(name: name, lock: nil, coauthLockID: "Client_1_CoauthLock"),
            expect: [.ok, .json([.string("Name", required: true, equals: name)])])
        try await run.send(
            .checkFileInfo, expect: [.json([.string("BaseFileName", required: true, equals: name + ".wopitest")])])
        try await download(
            run, [.main(known: .wordMain)], sequence: false,
            FramesCheck(
                blobCount: 0, streams: [.init(id: "MainContent", scheme: .zip, content: (.wordMain, .wordMain))]))
    }
}
