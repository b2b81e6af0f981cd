import Foundation
import WOPIModels

/// One input of the `http-host` target, decoded: how the host is configured, then up to eight steps (requests, or
/// the clock moving on), run in order against one fresh host, so that a sequence such as CreateUploadSession then
/// two UpdateUploadSessions fits in one input. Every byte string decodes to a script; ``write(to:)`` gives the bytes
/// back (the seed corpus is written that way).
struct HTTPScript: Choice {
    static let maximumSteps = 8

    var variant: HostVariant
    var steps: [ScriptStep]

    init(variant: HostVariant = HostVariant(), steps: [ScriptStep]) {
        self.variant = variant
        self.steps = steps
    }

    init(from reader: inout ChoiceReader) {
        variant = HostVariant(from: &reader)
        steps = []
        while !reader.isAtEnd, steps.count < Self.maximumSteps { steps.append(ScriptStep(from: &reader)) }
    }

    func write(to writer: inout ChoiceWriter) {
        variant.write(to: &writer)
        for step in steps { step.write(to: &writer) }
    }
}

/// The settings of the host an input runs against (one byte; 0 is the default host).
struct HostVariant: Choice {
    /// No public URL: the host builds its URLs from each request's `Host` and `X-Forwarded-Proto`.
    var urlsFromRequest = false
    /// Proof keys checked on every request (a quarter of the inputs: signing costs a millisecond a request).
    var proofKeys = false
    var acknowledgeViewOnlyLocks = false
    var officeMobileNames = false
    var shareLinks = true
    var releaseAfterClose = false

    init() {}

    init(from reader: inout ChoiceReader) {
        let bits = reader.byte()
        urlsFromRequest = bits & 1 != 0
        proofKeys = bits & 6 == 6
        acknowledgeViewOnlyLocks = bits & 8 != 0
        officeMobileNames = bits & 16 != 0
        shareLinks = bits & 32 == 0
        releaseAfterClose = bits & 64 != 0
    }

    func write(to writer: inout ChoiceWriter) {
        var bits: UInt8 = urlsFromRequest ? 1 : 0
        if proofKeys { bits |= 6 }
        if acknowledgeViewOnlyLocks { bits |= 8 }
        if officeMobileNames { bits |= 16 }
        if !shareLinks { bits |= 32 }
        if releaseAfterClose { bits |= 64 }
        writer.byte(bits)
    }
}

/// A step of a script: a request, or the host's clock moving on (so tokens, locks and upload sessions expire).
enum ScriptStep: Choice {
    case request(ScriptedRequest)
    case advanceClock(ClockStep)

    /// The first byte of a step: an ``Operation``, a ``ClockStep`` from this value up, a free-form request between.
    private static let firstClockStep = 248
    private static let freeForm = UInt8(Operation.allCases.count)

    init(from reader: inout ChoiceReader) {
        let kind = Int(reader.byte())
        if kind < Operation.allCases.count {
            self = .request(ScriptedRequest(route: .operation(Operation.allCases[kind]), from: &reader))
        } else if kind >= Self.firstClockStep {
            self = .advanceClock(ClockStep.allCases[(kind - Self.firstClockStep) % ClockStep.allCases.count])
        } else {
            self = .request(ScriptedRequest(route: .freeForm(FreeFormRoute(from: &reader)), from: &reader))
        }
    }

    func write(to writer: inout ChoiceWriter) {
        switch self {
        case .request(let request):
            switch request.route {
            case .operation(let operation): writer.pick(operation, in: Operation.allCases)
            case .freeForm(let route):
                writer.byte(Self.freeForm)
                route.write(to: &writer)
            }
            request.write(to: &writer)
        case .advanceClock(let step):
            writer.byte(UInt8(Self.firstClockStep + ClockStep.allCases.firstIndex(of: step)!))
        }
    }
}

/// How far a ``ScriptStep/advanceClock(_:)`` moves the clock: past a lock's refresh, an upload session's 30
/// minutes, a token's hour, a month.
enum ClockStep: TimeInterval, CaseChoice {
    case second = 1, minute = 61, tenMinutes = 601, halfHour = 1801, hour = 3601, month = 2_678_400
}

/// Where a request goes and how: one of the host's operations, or any method, endpoint and override.
enum Route: Equatable, Sendable {
    case operation(Operation)
    case freeForm(FreeFormRoute)

    var method: String {
        switch self {
        case .operation(let operation): operation.method
        case .freeForm(let route): route.method.rawValue
        }
    }

    var endpoint: Endpoint {
        switch self {
        case .operation(let operation): operation.endpoint
        case .freeForm(let route): route.endpoint
        }
    }

    /// The operation the host should take this request for: a free-form request's override may name one.
    var operation: Operation? {
        switch self {
        case .operation(let operation): operation
        case .freeForm(let route):
            Operation.allCases.first { $0.endpoint == route.endpoint && $0.override == route.override.value }
        }
    }
}

/// Any method, endpoint and `X-WOPI-Override`, for the combinations no client sends.
struct FreeFormRoute: Choice {
    var method: Method
    var endpoint: Endpoint
    var override: OverrideChoice

    enum Method: String, CaseChoice {
        case post = "POST", get = "GET", put = "PUT", delete = "DELETE", head = "HEAD", patch = "PATCH"
        case options = "OPTIONS", lock = "LOCK"
    }

    init(method: Method, endpoint: Endpoint, override: OverrideChoice) {
        self.method = method
        self.endpoint = endpoint
        self.override = override
    }

    init(from reader: inout ChoiceReader) {
        method = Method(from: &reader)
        endpoint = Endpoint(from: &reader)
        override = OverrideChoice(from: &reader)
    }

    func write(to writer: inout ChoiceWriter) {
        method.write(to: &writer)
        endpoint.write(to: &writer)
        override.write(to: &writer)
    }
}

/// A free-form request's `X-WOPI-Override` (on the bootstrapper, its `X-WOPI-EcosystemOperation`).
enum OverrideChoice: Choice {
    case none
    case known(String)
    case lowercased(String)
    case text(String)

    /// Every value of `X-WOPI-Override` and `X-WOPI-EcosystemOperation` (WOPIModels' `WOPIOverride` and
    /// `WOPIEcosystemOperation`).
    static let all = [
        WOPIOverride.lock, WOPIOverride.getLock, WOPIOverride.refreshLock, WOPIOverride.unlock, WOPIOverride.put,
        WOPIOverride.putRelative, WOPIOverride.renameFile, WOPIOverride.delete, WOPIOverride.getShareURL,
        WOPIOverride.addActivities, WOPIOverride.putUserInfo, WOPIOverride.createChildContainer,
        WOPIOverride.createChildFile, WOPIOverride.deleteContainer, WOPIOverride.renameContainer,
        WOPIOverride.getWopiSrcWithAccessToken, WOPIOverride.getCoauthLock, WOPIOverride.refreshCoauthLock,
        WOPIOverride.unlockCoauthLock, WOPIOverride.getCoauthTable, WOPIOverride.getChunkedFile,
        WOPIOverride.putChunkedFile, WOPIOverride.getChunks, WOPIOverride.getSequenceNumber,
        WOPIOverride.createUploadSession, WOPIOverride.updateUploadSession, WOPIEcosystemOperation.getRootContainer,
        WOPIEcosystemOperation.getNewAccessToken,
    ]

    /// The header's value; `nil` for none.
    var value: String? {
        switch self {
        case .none: nil
        case .known(let value), .text(let value): value
        case .lowercased(let value): value.lowercased()
        }
    }

    init(from reader: inout ChoiceReader) {
        switch reader.byte() % 4 {
        case 0: self = .none
        case 1: self = .known(reader.pick(Self.all))
        case 2: self = .lowercased(reader.pick(Self.all))
        default: self = .text(String(decoding: reader.bytes(upTo: 256), as: UTF8.self))
        }
    }

    func write(to writer: inout ChoiceWriter) {
        switch self {
        case .none: writer.byte(0)
        case .known(let value):
            writer.byte(1)
            writer.pick(value, in: Self.all)
        case .lowercased(let value):
            writer.byte(2)
            writer.pick(value, in: Self.all)
        case .text(let value):
            writer.byte(3)
            writer.bytes(Array(value.utf8))
        }
    }
}

/// The endpoints below the WOPI root (Docs/wopi-protocol.md §2.1), and the bootstrapper.
enum Endpoint: CaseChoice {
    case file, fileContents, fileAncestry, fileEcosystemPointer, fileURL, fileTemplate
    case container, containerChildren, containerAncestry, containerEcosystemPointer
    case ecosystem, rootContainerPointer, bootstrapper

    enum Kind { case file, container, ecosystem, bootstrapper }

    var kind: Kind {
        switch self {
        case .file, .fileContents, .fileAncestry, .fileEcosystemPointer, .fileURL, .fileTemplate: .file
        case .container, .containerChildren, .containerAncestry, .containerEcosystemPointer: .container
        case .ecosystem, .rootContainerPointer: .ecosystem
        case .bootstrapper: .bootstrapper
        }
    }

    /// What follows the item in the path (`/contents`), or the ecosystem's.
    var suffix: String {
        switch self {
        case .file, .container, .ecosystem, .bootstrapper: ""
        case .fileContents: "/contents"
        case .fileAncestry, .containerAncestry: "/ancestry"
        case .fileEcosystemPointer, .containerEcosystemPointer: "/ecosystem_pointer"
        case .fileURL: "/fileurl"
        case .fileTemplate: "/template"
        case .containerChildren: "/children"
        case .rootContainerPointer: "/root_container_pointer"
        }
    }
}

/// Every operation of the host (`WOPIOperation` in WOPIServer), as a client sends it: method, endpoint, override.
enum Operation: CaseChoice {
    case checkFileInfo, getFile, putFile, lock, unlockAndRelock, refreshLock, unlock, getLock, putRelativeFile
    case renameFile, deleteFile, putUserInfo, getFileShareURL, addActivities, enumerateFileAncestors
    case getFileEcosystem, getFromFileURL, getTemplate
    case getCoauthLock, refreshCoauthLock, unlockCoauthLock, getCoauthTable
    case getChunkedFile, putChunkedFile, getChunks, getSequenceNumber, createUploadSession, updateUploadSession
    case checkContainerInfo, createChildContainer, createChildFile, deleteContainer, renameContainer
    case getContainerShareURL, enumerateChildren, enumerateContainerAncestors, getContainerEcosystem
    case checkEcosystem, getRootContainer, getFileWopiSrc
    case bootstrap, bootstrapGetRootContainer, bootstrapGetNewAccessToken, bootstrapGetWopiSrc

    var method: String {
        switch self {
        case .checkFileInfo, .getFile, .enumerateFileAncestors, .getFileEcosystem, .getFromFileURL, .getTemplate,
            .checkContainerInfo, .enumerateChildren, .enumerateContainerAncestors, .getContainerEcosystem,
            .checkEcosystem, .getRootContainer, .bootstrap:
            "GET"
        default: "POST"
        }
    }

    var endpoint: Endpoint {
        switch self {
        case .getFile, .putFile, .putChunkedFile: .fileContents
        case .enumerateFileAncestors: .fileAncestry
        case .getFileEcosystem: .fileEcosystemPointer
        case .getFromFileURL: .fileURL
        case .getTemplate: .fileTemplate
        case .checkContainerInfo, .createChildContainer, .createChildFile, .deleteContainer, .renameContainer,
            .getContainerShareURL:
            .container
        case .enumerateChildren: .containerChildren
        case .enumerateContainerAncestors: .containerAncestry
        case .getContainerEcosystem: .containerEcosystemPointer
        case .checkEcosystem, .getFileWopiSrc: .ecosystem
        case .getRootContainer: .rootContainerPointer
        case .bootstrap, .bootstrapGetRootContainer, .bootstrapGetNewAccessToken, .bootstrapGetWopiSrc: .bootstrapper
        default: .file
        }
    }

    /// `X-WOPI-Override`, or on the bootstrapper `X-WOPI-EcosystemOperation`; `nil` for a GET.
    var override: String? {
        switch self {
        case .putFile: WOPIOverride.put
        case .lock, .unlockAndRelock: WOPIOverride.lock
        case .refreshLock: WOPIOverride.refreshLock
        case .unlock: WOPIOverride.unlock
        case .getLock: WOPIOverride.getLock
        case .putRelativeFile: WOPIOverride.putRelative
        case .renameFile: WOPIOverride.renameFile
        case .deleteFile: WOPIOverride.delete
        case .putUserInfo: WOPIOverride.putUserInfo
        case .getFileShareURL, .getContainerShareURL: WOPIOverride.getShareURL
        case .addActivities: WOPIOverride.addActivities
        case .getCoauthLock: WOPIOverride.getCoauthLock
        case .refreshCoauthLock: WOPIOverride.refreshCoauthLock
        case .unlockCoauthLock: WOPIOverride.unlockCoauthLock
        case .getCoauthTable: WOPIOverride.getCoauthTable
        case .getChunkedFile: WOPIOverride.getChunkedFile
        case .putChunkedFile: WOPIOverride.putChunkedFile
        case .getChunks: WOPIOverride.getChunks
        case .getSequenceNumber: WOPIOverride.getSequenceNumber
        case .createUploadSession: WOPIOverride.createUploadSession
        case .updateUploadSession: WOPIOverride.updateUploadSession
        case .createChildContainer: WOPIOverride.createChildContainer
        case .createChildFile: WOPIOverride.createChildFile
        case .deleteContainer: WOPIOverride.deleteContainer
        case .renameContainer: WOPIOverride.renameContainer
        case .getFileWopiSrc: WOPIOverride.getWopiSrcWithAccessToken
        case .bootstrapGetRootContainer: WOPIEcosystemOperation.getRootContainer
        case .bootstrapGetNewAccessToken: WOPIEcosystemOperation.getNewAccessToken
        case .bootstrapGetWopiSrc: WOPIEcosystemOperation.getWopiSrcWithAccessToken
        default: nil
        }
    }
}
