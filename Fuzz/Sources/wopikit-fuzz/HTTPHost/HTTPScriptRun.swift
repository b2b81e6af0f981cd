import Crypto
import Foundation
import HTTPTypes
import NIOCore
import WOPIChunking
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage
import _CryptoExtras

@testable import WOPIServer

/// Runs one ``HTTPScript`` against a fresh ``FuzzHost`` and checks every answer: no 5xx but the documented ones
/// (``isDocumented(_:proofKeys:)``), a streamed body that ends without an error and as long as it announced, and a
/// frame stream whose chunks hash to their IDs whenever GetChunkedFile or GetChunks answers 200.
struct HTTPScriptRun {
    let fuzz: FuzzHost
    /// What the answers so far told a client, for the next request's natural header values.
    private var state = ScriptState()

    static func run(_ script: HTTPScript) async {
        let fuzz: FuzzHost
        do {
            fuzz = try await FuzzHost.make(script.variant)
        } catch {
            fuzzCheck(false, "the host could not be seeded: \(error)")
            return
        }
        var run = HTTPScriptRun(fuzz: fuzz)
        for step in script.steps {
            switch step {
            case .advanceClock(let step): fuzz.clock.advance(by: step.rawValue)
            case .request(let request): await run.send(request)
            }
        }
    }

    private init(fuzz: FuzzHost) { self.fuzz = fuzz }

    // MARK: - One request

    private mutating func send(_ scripted: ScriptedRequest) async {
        let body = makeBody(scripted.body, operation: scripted.route.operation)
        let (target, bearer) = makeTarget(scripted)
        var authority = "wopi.test"
        var fields = HTTPFields()
        if let override = overrideValue(scripted.route) {
            fields[scripted.route.endpoint == .bootstrapper ? .wopiEcosystemOperation : .wopiOverride] = override
        }
        if let bearer { fields[.authorization] = "Bearer \(bearer)" }
        if !scripted.options.withoutNaturalHeaders, let operation = scripted.route.operation {
            for name in FuzzHeaders.natural(for: operation) {
                fields[HTTPField.Name(name)!] = naturalValue(name, alternate: false, body: body)
            }
        }
        for header in scripted.headers {
            let value: String
            switch header.value {
            case .natural: value = naturalValue(header.name, alternate: false, body: body)
            case .alternate: value = naturalValue(header.name, alternate: true, body: body)
            case .hostile(let hostile): value = hostile
            case .text(let text): value = text
            }
            if header.name == FuzzHeaders.host {
                authority = value
                continue
            }
            let name = HTTPField.Name(header.name)!
            fields[name] = value
            if header.repeated {
                fields.append(HTTPField(name: name, value: naturalValue(header.name, alternate: false, body: body)))
            }
        }
        let stream = body.stream(knownLength: !scripted.options.unknownLength, pieceSize: scripted.options.pieceSize)
        let head = HTTPRequest(
            method: HTTPRequest.Method(scripted.route.method)!, scheme: "https", authority: authority, path: target,
            headerFields: fields)
        var request = WOPIRequest(head: head, body: stream)
        if fuzz.variant.proofKeys, !scripted.options.unsigned { sign(&request) }
        let response = await fuzz.host.handle(request)
        // What the host took the request for: a header of the script may have replaced the route's override.
        let operation = Self.operation(of: request, at: scripted.route.endpoint)
        let received = await drain(response, of: operation)
        if describesInputs {
            let error = response.headers[.wopiServerError].map { ": \($0)" } ?? ""
            let answer = "\(response.status.code)\(error), \(received.count) bytes"
            FileHandle.standardError.write(Data("\(request.method) \(request.target) -> \(answer)\n".utf8))
        }
        check(response, request: request, operation: operation)
        learn(from: response, body: received, operation: operation)
        state.remember(body.chunks)
    }

    /// The operation the host performs for `request` to `endpoint` (as `WOPIOperation` routes it).
    private static func operation(of request: WOPIRequest, at endpoint: Endpoint) -> Operation? {
        let method = request.method.rawValue
        guard method == "GET" || method == "POST" else { return nil }
        let name: HTTPField.Name = endpoint == .bootstrapper ? .wopiEcosystemOperation : .wopiOverride
        let override = method == "POST" ? request.headers[name]?.uppercased() : nil
        return Operation.allCases.first { $0.endpoint == endpoint && $0.method == method && $0.override == override }
            ?? (endpoint == .bootstrapper ? .bootstrap : nil)
    }

    /// The override header's value: the operation's, or the free-form route's.
    private func overrideValue(_ route: Route) -> String? {
        switch route {
        case .operation(let operation): operation.override
        case .freeForm(let freeForm): freeForm.override.value
        }
    }

    // MARK: - Path and token

    /// The request target (path and query) and the token to send as `Authorization: Bearer`, if any.
    private func makeTarget(_ scripted: ScriptedRequest) -> (target: String, bearer: String?) {
        let endpoint = scripted.route.endpoint
        let shape = scripted.path
        let root = shape.has(PathShape.upperCaseRoot) ? "/WOPI" : "/wopi"
        var path = shape.has(PathShape.prefixed) ? "/hosts/a" : ""
        let (id, resource) = item(scripted.item, for: endpoint.kind)
        let encodedID = Self.percentEncoded(id, everything: shape.has(PathShape.percentEncodedID))
        switch endpoint.kind {
        case .file: path += "\(root)/files/\(encodedID)\(endpoint.suffix)"
        case .container: path += "\(root)/containers/\(encodedID)\(endpoint.suffix)"
        case .ecosystem: path += "\(root)/ecosystem\(endpoint.suffix)"
        case .bootstrapper: path += "/wopibootstrapper"
        }
        if shape.has(PathShape.trailingSlash) { path += "/" }
        if shape.has(PathShape.doubleSlashes) { path = path.replacingOccurrences(of: "/", with: "//") }
        let (queryToken, bearer) = credential(scripted.credential, for: resource, endpoint: endpoint)
        var query: [String] = []
        if let queryToken {
            let name = endpoint == .fileURL ? FileURLs.ticketParameter : "access_token"
            query.append("\(name)=\(Self.percentEncoded(queryToken, everything: false))")
        }
        if shape.has(PathShape.secondToken) { query.append("access_token=") }
        if shape.has(PathShape.extraQuery) { query.append("access_token_ttl=0&sc=%ZZ&ticket=") }
        if shape.has(PathShape.emptyQueryPairs) { query.append("&=&") }
        return (query.isEmpty ? path : path + "?" + query.joined(separator: "&"), bearer)
    }

    /// The ID a request names, and the resource its token is for.
    private func item(_ choice: ItemChoice, for kind: Endpoint.Kind) -> (String, AccessToken.Resource) {
        let missing = ItemID(rawValue: "abcdefghijklmnopqrstuvwxyz")!
        let id: ItemID
        switch (choice, kind) {
        case (_, .ecosystem), (_, .bootstrapper): return ("", .ecosystem)
        case (.primary, .file): id = fuzz.textFile
        case (.primary, _): id = fuzz.folder
        case (.secondary, .file): id = fuzz.zipFile
        case (.secondary, _), (.inner, .container): id = fuzz.root
        case (.inner, _): id = fuzz.innerFile
        case (.created, .file): id = state.createdFile ?? fuzz.textFile
        case (.created, _): id = state.createdContainer ?? fuzz.folder
        case (.otherUsers, .file): id = fuzz.bobFile
        case (.otherUsers, _): id = fuzz.bobRoot
        case (.sharedWithMe, _): id = SharedWithMe.id
        case (.otherKind, .file): id = fuzz.folder
        case (.otherKind, _): id = fuzz.textFile
        case (.missing, _): id = missing
        case (.text(let text), .file): return (text, .file(ItemID(rawValue: text) ?? fuzz.textFile))
        case (.text(let text), _): return (text, .container(ItemID(rawValue: text) ?? fuzz.folder))
        }
        return (id.rawValue, kind == .file ? .file(id) : .container(id))
    }

    /// The token in the query (a `FileUrl`'s ticket on that endpoint) and the one in `Authorization: Bearer`.
    private func credential(
        _ choice: CredentialChoice, for resource: AccessToken.Resource, endpoint: Endpoint
    ) -> (query: String?, bearer: String?) {
        if endpoint == .bootstrapper {
            switch choice {  // OAuth tokens of FuzzOAuthVerifier
            case .edit, .both: return (nil, "oauth-ana")
            case .otherUser: return (nil, "oauth-bob")
            case .expired: return (nil, "oauth-ghost")
            case .none: return (nil, nil)
            case .text(let text): return (nil, text)
            default: return (nil, fuzz.token(resource))
            }
        }
        let valid: String
        if endpoint == .fileURL, case .file(let file) = resource {
            valid = fuzz.fileURLTicket(file)
        } else {
            valid = fuzz.token(resource)
        }
        switch choice {
        case .edit: return (valid, nil)
        case .view: return (fuzz.token(resource, permission: .view), nil)
        case .otherUser: return (fuzz.token(resource, user: "bob"), nil)
        case .expired: return (fuzz.token(resource, lifetime: -1), nil)
        case .tampered: return (Self.tampered(valid), nil)
        case .otherItem:
            let other: AccessToken.Resource =
                resource == .file(fuzz.zipFile) ? .file(fuzz.textFile) : .file(fuzz.zipFile)
            return (fuzz.token(other), nil)
        case .ecosystem: return (fuzz.token(.ecosystem), nil)
        case .none: return (nil, nil)
        case .bearer: return (nil, valid)
        case .both: return (valid, fuzz.token(resource, user: "bob"))
        case .text(let text): return (text, nil)
        }
    }

    /// `token` with its middle character changed.
    private static func tampered(_ token: String) -> String {
        var bytes = Array(token.utf8)
        guard !bytes.isEmpty else { return "x" }
        let middle = bytes.count / 2
        bytes[middle] = bytes[middle] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` percent-encoded for a path segment or a query value: everything but unreserved characters, or with
    /// `everything`, every byte.
    private static func percentEncoded(_ text: String, everything: Bool) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let unreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D
                || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved, !everything {
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                encoded +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    // MARK: - Headers

    /// What a client sends in `name`, from what the script saw; `alternate` gives a second plausible value.
    private func naturalValue(_ name: String, alternate: Bool, body: FuzzBody) -> String {
        func number(_ value: Int64) -> String { String(alternate ? value &+ 1 : value) }
        let length = Int64(body.length)
        switch name {
        case WOPIHeader.lock: return alternate ? state.observedLock ?? "lock-two" : "lock-one"
        case WOPIHeader.oldLock: return alternate ? "lock-two" : "lock-one"
        case WOPIHeader.sequenceNumber: return number(state.sequenceNumber.flatMap { Int64($0) } ?? 1)
        case WOPIHeader.uploadSessionToken: return alternate ? "AAAAAAAAAAAAAAAAAAAAAA" : state.uploadSessionToken ?? ""
        case WOPIHeader.contentRangeOffset:
            return alternate ? String(state.uploadOffset &+ length) : String(state.uploadOffset)
        case WOPIHeader.contentRangeLength, WOPIHeader.size, "Content-Length": return number(length)
        case "Range": return alternate ? "bytes=-4" : "bytes=0-4"
        case "If-Range": return alternate ? "\"other\"" : state.etag ?? "\"v\""
        case WOPIHeader.coauthLockID: return alternate ? "coauth-two" : "coauth-one"
        case WOPIHeader.coauthLockType: return alternate ? "CoauthExclusive" : "Coauth"
        case WOPIHeader.coauthLockMetadata: return alternate ? String(repeating: "m", count: 4097) : "metadata"
        case WOPIHeader.coauthLockExpirationTimeout, WOPIHeader.lockExpirationTimeout: return alternate ? "59" : "3600"
        case WOPIHeader.coauthTableVersion: return number(state.coauthTableVersion.flatMap { Int64($0) } ?? 1)
        case WOPIHeader.lockUserVisible, WOPIHeader.overwriteRelativeTarget, "X-COOL-WOPI-IsModifiedByUser",
            "X-LOOL-WOPI-IsModifiedByUser", "X-COOL-WOPI-IsAutosave", "X-COOL-WOPI-IsExitSave":
            return alternate ? "false" : "true"
        case WOPIHeader.maxExpectedSize: return alternate ? "1" : "1000000"
        case WOPIHeader.editors: return alternate ? "" : "ana,bob"
        case WOPIHeader.suggestedTarget: return alternate ? "notes.txt" : ".txt"
        case WOPIHeader.relativeTarget: return alternate ? "deck.pptx" : "relative.txt"
        case WOPIHeader.requestedName: return alternate ? "deck" : "renamed"
        case WOPIHeader.fileConversion: return alternate ? "" : "true"
        case WOPIHeader.fileExtensionFilterList: return alternate ? "txt" : ".txt,.pptx"
        case WOPIHeader.urlType: return alternate ? "ReadWrite" : "ReadOnly"
        case WOPIHeader.wopiSrc:
            return FuzzHost.publicURL + (alternate ? "/wopi/containers/\(fuzz.folder)" : "/wopi/files/\(fuzz.textFile)")
        case WOPIHeader.hostNativeFileName: return alternate ? "Folder/inner.docx" : "notes.txt"
        case WOPIHeader.override: return alternate ? WOPIOverride.lock.lowercased() : WOPIOverride.lock
        case WOPIHeader.ecosystemOperation:
            return alternate ? WOPIEcosystemOperation.getNewAccessToken : WOPIEcosystemOperation.getRootContainer
        case WOPIHeader.proof, WOPIHeader.proofOld: return alternate ? "" : "AAAA"
        case WOPIHeader.timeStamp:
            return String(DotNetTicks.ticks(from: fuzz.clock.date.addingTimeInterval(alternate ? -21 * 60 : 0)))
        case "Content-Type": return alternate ? "application/x-www-form-urlencoded" : "application/octet-stream"
        case "Authorization": return alternate ? "Bearer oauth-ana" : "Bearer \(fuzz.token(.file(fuzz.textFile)))"
        case "Cookie": return alternate ? "access_token=\(fuzz.token(.file(fuzz.textFile)))" : "a=b"
        case "X-Forwarded-Proto": return alternate ? "http" : "https"
        case "X-Forwarded-For": return "192.0.2.1"
        case FuzzHeaders.host: return alternate ? "wopi.test:8443" : "wopi.test"
        case "X-COOL-WOPI-Timestamp", "X-LOOL-WOPI-Timestamp":
            return alternate ? "2000-01-01T00:00:00Z" : state.lastModifiedTime ?? "2023-11-14T22:13:20.000Z"
        case "traceparent": return "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        default: return alternate ? "" : "fuzz"
        }
    }

    /// Signs `request` with the proof key, as Office for the web does (keeping any proof header the script set).
    private func sign(_ request: inout WOPIRequest) {
        let ticks = DotNetTicks.ticks(from: fuzz.clock.date)
        let payload = ProofKeyPayload(
            accessToken: request.accessToken ?? "", url: request.url(origin: fuzz.host.publicBase(for: request)),
            timestamp: ticks)
        guard
            let signature = try? FuzzHostFixture.proofKeys.key.signature(
                for: SHA256.hash(data: payload.bytes), padding: .insecurePKCS1v1_5)
        else { return }
        let proof = signature.rawRepresentation.base64EncodedString()
        for (name, value) in [
            (WOPIHeader.proof, proof), (WOPIHeader.proofOld, proof), (WOPIHeader.timeStamp, "\(ticks)"),
        ]
        where request.header(name) == nil {
            request.headers[HTTPField.Name(name)!] = value
        }
    }

    // MARK: - Body

    private func makeBody(_ choice: BodyChoice, operation: Operation?) -> FuzzBody {
        switch choice {
        case .natural:
            switch operation {
            case .putChunkedFile, .getChunkedFile, .getChunks, .updateUploadSession:
                return frames(FramePlan.natural(for: operation), operation: operation)
            case .putFile: return FuzzBody(Array("Content written by the fuzzer.\n".utf8))
            case .putRelativeFile, .createChildFile: return FuzzBody(FuzzHostFixture.text)
            case .addActivities: return FuzzBody(Array(BodyChoice.templates[0].utf8))
            case .putUserInfo: return FuzzBody(Array("Ana's user info".utf8))
            default: return FuzzBody([])
            }
        case .empty: return FuzzBody([])
        case .raw(let bytes): return FuzzBody(bytes)
        case .frames(let plan): return frames(plan, operation: operation)
        case .template(let index, let suffix): return FuzzBody(Array(BodyChoice.templates[index].utf8) + suffix)
        case .content(let index, let offset, let patch):
            var content = FuzzHostFixture.seedContents[index]
            let start = Int(offset) % (content.count + 1)
            content.replaceSubrange(start..<min(start + patch.count, content.count), with: patch)
            return FuzzBody(content)
        case .large(let index): return FuzzBody(large: BodyChoice.largeSizes[index])
        }
    }

    /// The bytes of a frame stream.
    private func frames(_ plan: FramePlan, operation: Operation?) -> FuzzBody {
        var large = false
        let chunks = plan.chunks.map { chunk -> [UInt8] in
            switch chunk.source {
            case .bytes(let bytes): return bytes
            case .reference(let pool, let index): return self.chunk(in: pool, at: index, body: [])
            case .large(let index):
                defer { large = true }
                return large ? [] : [UInt8](repeating: 0x61, count: ChunkChoice.largeSizes[index])
            }
        }
        var bytes: [UInt8] = []
        switch plan.message {
        case .planned(let message):
            let json = messageJSON(message, operation: operation, body: chunks)
            bytes += FrameHeader.messageJSON(length: UInt64(json.count)).encoded + json
        case .raw(let json): bytes += FrameHeader.messageJSON(length: UInt64(json.count)).encoded + json
        case .none: break
        }
        for (choice, chunk) in zip(plan.chunks, chunks) {
            let id = choice.wrongID ? SpookyHash.hash(chunk + [0]) : SpookyHash.hash(chunk)
            bytes += FrameHeader.chunk(id, length: UInt64(chunk.count)).encoded + chunk
        }
        switch plan.ending {
        case .endFrame: bytes += FrameHeader.end.encoded
        case .none: break
        case .truncated: bytes.removeLast(min(bytes.count, 1 + bytes.count / 3))
        case .trailing: bytes += FrameHeader.end.encoded + Array("trailing".utf8)
        }
        return FuzzBody(bytes, chunks: chunks)
    }

    /// A chunk a reference names (pools that are empty fall back to the seed chunks).
    private func chunk(in pool: ChunkReference.Pool, at index: Int, body: [[UInt8]]) -> [UInt8] {
        let chunks: [[UInt8]] =
            switch pool {
            case .body: body.isEmpty ? FuzzHostFixture.seedChunks : body
            case .seed: FuzzHostFixture.seedChunks
            case .script: state.sentChunks.isEmpty ? FuzzHostFixture.seedChunks : state.sentChunks
            }
        return chunks[index % chunks.count]
    }

    /// The MessageJSON of `operation` (PutChunkedFile's for any other) from `plan`.
    private func messageJSON(_ plan: MessagePlan, operation: Operation?, body: [[UInt8]]) -> [UInt8] {
        func resolve(_ reference: ChunkReference) -> (id: String, bytes: [UInt8]) {
            let bytes = chunk(in: reference.pool, at: reference.index, body: body)
            return (SpookyHash.hash(bytes).base64, bytes)
        }
        func number(_ index: Int) -> Int64? { ChunkReference.numbers[index % ChunkReference.numbers.count] }
        let property = plan.property.map { MessagePlan.propertyNames[$0 % MessagePlan.propertyNames.count] }
        let encoder = WOPIJSON.encoder
        let json: Data?
        switch operation {
        case .getChunkedFile:
            json = try? encoder.encode(
                GetChunkedFileRequestMessage(
                    contentPropertiesToReturn: property.map { [$0] } ?? [],
                    contentFilters: plan.streams.map { stream in
                        GetChunkedFileRequestMessage.ContentFilter(
                            streamID: stream.stream.rawValue, chunkingScheme: stream.scheme,
                            chunksToReturn: stream.chunksToReturn,
                            alreadyKnownChunks: stream.references.map { resolve($0).id })
                    }))
        case .getChunks:
            json = try? encoder.encode(
                GetChunksRequestMessage(
                    contentFilters: plan.streams.map { stream in
                        GetChunksRequestMessage.ContentFilter(
                            streamID: stream.stream.rawValue, chunkingScheme: stream.scheme,
                            chunkRangesToReturn: stream.references.map { reference in
                                GetChunksRequestMessage.ChunkRange(
                                    chunkID: resolve(reference).id, offset: number(reference.offset) ?? 0,
                                    length: number(reference.length) ?? -1)
                            })
                    }))
        default:
            json = try? encoder.encode(
                PutChunkedFileRequestMessage(
                    contentProperties: property.map {
                        [ContentProperty(name: $0, value: "v", retention: .keepOnContentChange)]
                    }
                        ?? [],
                    signatures: plan.streams.map { stream in
                        StreamSignature(
                            streamID: stream.stream.rawValue, chunkingScheme: stream.scheme,
                            chunkSignatures: stream.references.map { reference in
                                let (id, bytes) = resolve(reference)
                                let length =
                                    number(reference.length).map { UInt64(bitPattern: $0) } ?? UInt64(bytes.count)
                                return ChunkSignature(chunkID: id, length: length)
                            })
                    },
                    uploadSessionTokenToCommit: plan.commitsUploadSession ? state.uploadSessionToken ?? "unknown" : ""))
        }
        return json.map(Array.init) ?? []
    }

    // MARK: - Answers

    /// Reads the whole body as a client would; keeps it when it is small or a frame stream.
    private func drain(_ response: WOPIResponse, of operation: Operation?) async -> [UInt8] {
        switch response.body {
        case .empty: return []
        case .buffer(let buffer): return Array(buffer.readableBytesView)
        case .stream(let stream):
            let keep = operation == .getChunkedFile || operation == .getChunks
            var bytes: [UInt8] = []
            var received: Int64 = 0
            do {
                for try await buffer in stream {
                    received += Int64(buffer.readableBytes)
                    if keep || received <= 65536 { bytes += buffer.readableBytesView }
                }
            } catch {
                // After the head, a failure can only cut the connection: a 5xx the client cannot even read.
                fuzzCheck(false, "a \(response.status.code) body failed after \(received) bytes: \(error)")
            }
            if let known = stream.knownLength {
                fuzzCheck(
                    received == known, "a \(response.status.code) body announced \(known) bytes and sent \(received)")
            }
            return bytes
        }
    }

    /// Fails on a 5xx the host does not document, and on a chunked transfer's 200 that is no frame stream.
    private func check(_ response: WOPIResponse, request: WOPIRequest, operation: Operation?) {
        let code = response.status.code
        if code >= 500 {
            let message = response.headers[.wopiServerError] ?? ""
            fuzzCheck(
                Self.isDocumented(response, proofKeys: fuzz.variant.proofKeys),
                "\(code) for \(request.method) \(request.path) (\(operation.map { "\($0)" } ?? "free form")): \(message)"
            )
        }
    }

    /// The 5xx answers the host documents: 501 for what it does not implement (Docs/protocol-decisions.md: an unknown
    /// override, both target headers; a backend's `unsupported`), 503 "try again" while a store is contended or busy
    /// (`StorageError.busy`/`unavailable`, with `Retry-After`), and on a host with proof keys the 500 of a failed
    /// proof-key check (Docs/wopi-protocol.md §12). Any other 5xx (`The host failed: …`) is a finding.
    static func isDocumented(_ response: WOPIResponse, proofKeys: Bool) -> Bool {
        let message = response.headers[.wopiServerError] ?? ""
        switch response.status.code {
        case 501: return true
        case 503: return message.contains("try again") || response.headers[.retryAfter] != nil
        case 500: return proofKeys && message.hasPrefix("Proof-key check failed")
        default: return false
        }
    }

    /// Keeps what a client learns from an answer: the upload session, its offset, the sequence number, the coauth
    /// table's version, a lock, an ETag, a created item.
    private mutating func learn(from response: WOPIResponse, body: [UInt8], operation: Operation?) {
        let headers = response.headers
        if let value = headers[.wopiSequenceNumber] { state.sequenceNumber = value }
        if let value = headers[.wopiUploadSessionCurrentOffset], let offset = Int64(value) {
            state.uploadOffset = offset
        }
        if let value = headers[.wopiCoauthTableVersion] { state.coauthTableVersion = value }
        if let value = headers[.wopiLock], !value.isEmpty { state.observedLock = value }
        if let value = headers[.eTag] { state.etag = value }
        guard response.status == .ok else { return }
        if operation == .getChunkedFile || operation == .getChunks { Self.checkFrames(body) }
        guard body.count <= 65536, case .buffer = response.body else { return }
        let text = String(decoding: body, as: UTF8.self)
        switch operation {
        case .createUploadSession:
            if let answer = try? WOPIJSON.decoder.decode(CreateUploadSessionResponse.self, from: Data(body)) {
                state.uploadSessionToken = answer.uploadSessionToken
                state.uploadOffset = 0
            }
        case .putRelativeFile, .createChildFile:
            if let id = Self.itemID(after: "/files/", in: text) { state.createdFile = id }
        case .createChildContainer:
            if let id = Self.itemID(after: "/containers/", in: text) { state.createdContainer = id }
        default: break
        }
        if let range = text.range(of: #""LastModifiedTime":""#) {
            state.lastModifiedTime = String(text[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// A GetChunkedFile or GetChunks answer must be a whole frame stream whose chunks hash to their IDs.
    private static func checkFrames(_ body: [UInt8]) {
        var decoder = FrameDecoder()
        var current: (id: ChunkID, hasher: SpookyHash)?
        do {
            for event in try decoder.decode(ByteBuffer(bytes: body)) {
                switch event {
                case .header(let header): current = header.chunkID.map { ($0, SpookyHash()) }
                case .payload(let part):
                    if current != nil { part.withUnsafeReadableBytes { current!.hasher.update($0) } }
                case .frameEnd:
                    if let current {
                        fuzzCheck(current.hasher.finalize() == current.id, "a chunk frame's ID is its hash")
                    }
                    current = nil
                case .end: break
                }
            }
            try decoder.finish()
        } catch {
            fuzzCheck(false, "a 200 of GetChunkedFile or GetChunks is no frame stream: \(error)")
        }
    }

    /// The item ID in a URL of a JSON answer, after `marker`.
    private static func itemID(after marker: String, in text: String) -> ItemID? {
        guard let range = text.range(of: marker) else { return nil }
        return ItemID(rawValue: String(text[range.upperBound...].prefix { $0 != "?" && $0 != "\"" && $0 != "/" }))
    }
}

/// What a script's answers told it so far.
private struct ScriptState {
    var uploadSessionToken: String?
    var uploadOffset: Int64 = 0
    var sequenceNumber: String?
    var coauthTableVersion: String?
    var observedLock: String?
    var etag: String?
    var lastModifiedTime: String?
    var createdFile: ItemID?
    var createdContainer: ItemID?
    /// The chunks the script's requests sent (the last 32), for later signatures and ranges.
    var sentChunks: [[UInt8]] = []

    mutating func remember(_ chunks: [[UInt8]]) {
        sentChunks += chunks.filter { $0.count <= 65536 }
        if sentChunks.count > 32 { sentChunks.removeFirst(sentChunks.count - 32) }
    }
}

/// A request body: bytes in memory, or a large run of one byte made in pieces of one shared buffer.
struct FuzzBody {
    private let bytes: [UInt8]
    private let largeLength: Int?
    /// The Chunk frames' payloads, when it is a frame stream.
    let chunks: [[UInt8]]

    init(_ bytes: [UInt8], chunks: [[UInt8]] = []) {
        self.bytes = bytes
        self.chunks = chunks
        largeLength = nil
    }

    init(large length: Int) {
        bytes = []
        chunks = []
        largeLength = length
    }

    var length: Int { largeLength ?? bytes.count }

    private static let largePiece = ByteBuffer(repeating: 0x61, count: 256 * 1024)

    /// The body as a stream in pieces of `pieceSize` bytes, with its length or without.
    func stream(knownLength: Bool, pieceSize: Int) -> ByteStream {
        var buffers: [ByteBuffer] = []
        if let largeLength {
            var left = largeLength
            while left > 0 {
                let size = min(left, Self.largePiece.readableBytes)
                buffers.append(Self.largePiece.getSlice(at: 0, length: size)!)
                left -= size
            }
        } else {
            // At most about a thousand pieces: a 4 MiB body in bytes would measure the harness, not the host.
            let pieceSize = max(pieceSize, bytes.count / 1024)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + pieceSize)
                buffers.append(ByteBuffer(bytes: bytes[start..<end]))
                start = end
            }
        }
        let length = knownLength ? Int64(self.length) : nil
        let pieces = buffers
        return ByteStream(knownLength: length) {
            var remaining = pieces[...]
            return { remaining.popFirst() }
        }
    }
}
