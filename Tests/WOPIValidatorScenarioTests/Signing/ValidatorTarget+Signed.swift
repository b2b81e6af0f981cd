import Hummingbird
import Logging
import NIOCore
import WOPITestSupport

extension ValidatorTarget {
    /// Like ``withHost(storage:extraArguments:_:)``; with `signed`, the validator plays Office for the web: the test
    /// serves a discovery XML publishing fresh ``ValidatorProofKeys`` (current and old) on 127.0.0.1, starts
    /// `wopi-host serve --discovery-url` on it, and every request of the run is signed with those keys.
    static func withHost<T: Sendable>(
        storage: Storage, signed: Bool, _ body: @Sendable (ValidatorTarget) async throws -> T
    ) async throws -> T {
        guard signed else { return try await withHost(storage: storage, body) }
        let keys = try ValidatorProofKeys()
        var logger = Logger(label: "validator-discovery")
        logger.logLevel = .warning
        // The actions' urlsrc is never fetched by the host: a placeholder origin will do.
        let xml = try keys.discoveryXML(clientURL: "https://validator.invalid")
        let router = Router()
        router.get("hosting/discovery") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/xml"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: xml)))
        }
        return try await LoopbackServer.run(router, logger: logger) { discoveryServer in
            let arguments = ["--discovery-url", discoveryServer + "/hosting/discovery"]
            return try await withHost(storage: storage, extraArguments: arguments) { target in
                var signedTarget = target
                signedTarget.proofKeys = keys
                return try await body(signedTarget)
            }
        }
    }
}
