import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import WOPITestSupport

/// A stand-in for Office for the web, served by a test on 127.0.0.1: it publishes discovery with a test proof key,
/// receives the host page's form POST at `/we/ACTION.aspx`, calls the host's WOPI endpoints with signed proofs, and
/// answers a page that speaks PostMessage with the host page. A frame from another origin (`localhost` instead of
/// `127.0.0.1`) posts `UI_Close` to the host page, which must ignore it. With ``State/mimicsCollabora`` it edits as
/// Collabora Online does: it keeps its lock after saving, says `VersionStates` in `App_LoadingStatus`, and answers
/// `Host_VersionRestore` (`Pre_Restore`) with `App_VersionRestore` (`Pre_Restore_Ack`).
final class StandInWOPIClient: Sendable {
    /// What happened during one form POST.
    struct Session: Sendable {
        var action: String
        var wopiSrc: String
        var accessToken: String
        var accessTokenTTL: String
        /// `OPERATION status` for every WOPI call, in order.
        var calls: [String] = []
        var checkFileInfo: [String: String] = [:]
        var uploaded: String = ""
        /// What GetFile answered, when the session read the file.
        var read = ByteBuffer()
    }

    struct State: Sendable {
        var discoveryXML = ""
        var sessions: [Session] = []
        var reports: [String] = []
        /// Whether the next sessions edit as Collabora Online does.
        var mimicsCollabora = false
    }

    let signer: ProofSigner
    let state = Mutex(State())

    init(signer: ProofSigner) { self.signer = signer }

    var sessions: [Session] { state.withLock { $0.sessions } }
    var reports: [String] { state.withLock { $0.reports } }

    /// Serves the stand-in for the duration of `body`, with its base URL.
    func run<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        var logger = Logger(label: "stand-in")
        logger.logLevel = .warning
        let router = Router()
        router.get("hosting/discovery") { [self] _, _ in
            Self.response("application/xml", state.withLock { $0.discoveryXML })
        }
        router.post("we/:action") { [self] request, context in
            let action = context.parameters.get("action") ?? ""
            let form = try await request.body.collect(upTo: 64 * 1024)
            return try await open(
                action: String(action.dropLast(".aspx".count)), form: String(buffer: form),
                query: request.uri.query ?? "")
        }
        router.get("hosting/capabilities") { _, _ in
            Self.response("application/json", #"{"productName": "stand-in", "hasTemplateSource": true}"#)
        }
        router.get("evil") { _, _ in Self.response("text/html", Self.evilPage) }
        router.post("report/:what") { [self] _, context in
            let what = context.parameters.get("what") ?? ""
            state.withLock { $0.reports.append(what) }
            return Self.response("text/plain", "ok")
        }
        return try await LoopbackServer.run(router, logger: logger) { baseURL in
            state.withLock {
                $0.discoveryXML =
                    (try? TestDiscoveryXML.make(clientURL: baseURL, current: signer, capabilities: true)) ?? ""
            }
            return try await body(baseURL)
        }
    }

    /// Waits (``Polling/patience`` at most) until `condition` holds for the state.
    func wait(for what: String, _ condition: @escaping @Sendable (State) -> Bool) async throws {
        guard try await !Polling.until(every: .milliseconds(50), { state.withLock { condition($0) } }) else { return }
        throw ChromeDriver.Failure(description: "the stand-in WOPI client never saw \(what): \(state.withLock { $0 })")
    }

    // MARK: - The WOPI session

    private func open(action: String, form: String, query: String) async throws -> Response {
        let fields = Self.pairs(form)
        let wopiSrc = Self.pairs(query)["wopisrc"] ?? ""
        var session = Session(
            action: action, wopiSrc: wopiSrc, accessToken: fields["access_token"] ?? "",
            accessTokenTTL: fields["access_token_ttl"] ?? "")
        let token = session.accessToken
        func call(_ name: String, _ suffix: String, _ headers: [String: String], body: String? = nil) async throws
            -> HTTP.Reply
        {
            let url = "\(wopiSrc)\(suffix)?access_token=\(token)"
            let signed = try signer.headers(url: url, token: token).merging(headers) { $1 }
            let reply = try await HTTP.send(
                body == nil && headers.isEmpty ? .GET : .POST, url, headers: signed, body: body)
            session.calls.append("\(name) \(reply.status)")
            return reply
        }
        let info = try await call("CheckFileInfo", "", [:]).json()
        for (key, value) in info { session.checkFileInfo[key] = "\(value)" }
        if action == "editnew" {
            session.uploaded = "new document saved by the stand-in"
            _ = try await call("PutFile", "/contents", ["X-WOPI-Override": "PUT"], body: session.uploaded)
        } else if action == "edit" {
            let lock = "stand-in-lock"
            _ = try await call("Lock", "", ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": lock])
            if let source = info["TemplateSource"] as? String {
                // As Collabora Online does: load the template, signed with the token of its URL, and save over the
                // empty document.
                let sourceToken = Self.pairs(URLComponents(string: source)?.query ?? "")["access_token"] ?? ""
                let template = try await HTTP.get(source, headers: try signer.headers(url: source, token: sourceToken))
                session.calls.append("TemplateSource \(template.status)")
                session.uploaded = template.text + " + edited by the stand-in"
            } else {
                session.read = try await call("GetFile", "/contents", [:]).body
                session.uploaded = "edited by the stand-in at \(Date().timeIntervalSince1970)"
            }
            _ = try await call(
                "PutFile", "/contents", ["X-WOPI-Override": "PUT", "X-WOPI-Lock": lock], body: session.uploaded)
            if !state.withLock({ $0.mimicsCollabora }) {
                _ = try await call("Unlock", "", ["X-WOPI-Override": "UNLOCK", "X-WOPI-Lock": lock])
            }
        } else {
            session.read = try await call("GetFile", "/contents", [:]).body
        }
        let origin = session.checkFileInfo["PostMessageOrigin"] ?? ""
        let name = session.checkFileInfo["BaseFileName"] ?? ""
        state.withLock { $0.sessions.append(session) }
        let collabora = state.withLock { $0.mimicsCollabora }
        return Self.response("text/html", Self.editorPage(origin: origin, fileName: name, collabora: collabora))
    }

    private static func editorPage(origin: String, fileName: String, collabora: Bool) -> String {
        let originJSON = String(decoding: try! JSONEncoder().encode(origin), as: UTF8.self)
        return """
            <!doctype html><html><head><meta charset="utf-8"><title>Stand-in editor</title>
            <style>body{font-family:sans-serif;margin:0;padding:2rem;background:#f3f2f1}
            .doc{background:#fff;max-width:40rem;margin:1rem auto;padding:3rem;box-shadow:0 1px 4px #0003;min-height:20rem}
            .bar{background:#185abd;color:#fff;padding:.6rem 1rem;font-weight:600}
            iframe{width:1px;height:1px;border:0}</style></head>
            <body><div class="bar">Stand-in WOPI client · \(fileName.replacingOccurrences(of: "<", with: "&lt;"))</div>
            <div class="doc"><p>This page stands in for the WOPI client's editor in WOPIKit's tests.</p>
            <p id="status">Loading…</p></div>
            <iframe id="evil"></iframe>
            <script>
            var hostOrigin = \(originJSON);
            window.addEventListener('message', function (event) {
              if (event.origin !== hostOrigin) { return; }
              var message = JSON.parse(event.data);
              if (message.MessageId === 'Host_PostmessageReady') {
                document.getElementById('status').textContent = 'Host_PostmessageReady received; saved.';
                fetch('/report/ready', { method: 'POST' }).then(function () {
                  document.getElementById('evil').src = location.protocol + '//localhost:' + location.port + '/evil';
                });
              }
              if (message.MessageId === 'Host_VersionRestore' && message.Values.Status === 'Pre_Restore') {
                fetch('/report/pre-restore', { method: 'POST' }).then(function () {
                  window.parent.postMessage(JSON.stringify({ MessageId: 'App_VersionRestore', SendTime: Date.now(),
                    Values: { Status: 'Pre_Restore_Ack' } }), hostOrigin);
                });
              }
            });
            window.parent.postMessage(JSON.stringify({ MessageId: 'App_LoadingStatus', SendTime: Date.now(),
              Values: \(collabora
                ? "{ Status: 'Frame_Ready', Features: { VersionStates: true } }"
                : "{ DocumentLoadedTime: Date.now() }") }), hostOrigin);
            </script></body></html>
            """
    }

    /// A frame on another origin that tries to close the host page.
    private static let evilPage = """
        <!doctype html><html><body><script>
        window.top.postMessage(JSON.stringify({ MessageId: 'UI_Close', SendTime: Date.now(), Values: {} }), '*');
        fetch('/report/evil', { method: 'POST' });
        </script></body></html>
        """

    private static func response(_ type: String, _ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private static func pairs(_ encoded: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in encoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { result[parts[0]] = parts[1] }
        }
        return result
    }
}
