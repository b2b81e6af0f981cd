import HTTPTypes
import Logging
import NIOCore
import Testing
import WOPIAuthorizationServer
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage

/// `WOPIResponse(answering:to:page:…)` renders an error from the request: a page for a person at a page endpoint,
/// the error's own answer for a program, and a 500 that names nothing of an error that is no `HTTPResponseError`.
@Suite struct ErrorAnswerTests {
    struct Unexpected: Error {}

    let logger = Logger(label: "test.errors")

    /// A page endpoint's drawing: the title and text in the body, so a test reads what was drawn.
    let page: @Sendable (HTTPResponse.Status, ErrorPageMessage) -> WOPIResponse = { status, message in
        var response = WOPIResponse(status: status, body: .buffer(.init(string: "\(message.title)|\(message.text)")))
        response.headers[.contentType] = "text/html; charset=utf-8"
        return response
    }

    func request(accept: String?) -> WOPIRequest {
        var head = HTTPRequest(method: .get, scheme: "http", authority: "wopi.test", path: "/files")
        if let accept { head.headerFields[.accept] = accept }
        return WOPIRequest(head: head)
    }

    func body(_ response: WOPIResponse) -> String {
        guard case .buffer(let buffer) = response.body else { return "" }
        return String(buffer: buffer)
    }

    @Test func aBrowserGetsThePageOfTheErrorAtItsStatus() async throws {
        let veto = ContentVeto.tooLarge("Ana's quota is used up; delete files.")
        for accept in ["text/html,application/xhtml+xml,*/*;q=0.8", nil] {
            let response = WOPIResponse(answering: veto, to: request(accept: accept), page: page, logger: logger)
            #expect(response.status == .contentTooLarge)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(body(response) == "Not allowed|Ana's quota is used up; delete files.")
        }
    }

    @Test func aProgramGetsTheErrorsOwnAnswer() async throws {
        let veto = ContentVeto.refused("Read-only folder.")
        let response = WOPIResponse(
            answering: veto, to: request(accept: "application/json"), page: page, logger: logger)
        #expect(response.status == .unauthorized)
        #expect(response.headers[.contentType] != "text/html; charset=utf-8")
        #expect(response.headers[.wopiServerError] == "Read-only folder.")
    }

    @Test func aStorageErrorPageSaysWhatItsStatusMeans() async throws {
        let response = WOPIResponse(
            answering: StorageError(.notAContainer, "File f is no folder."), to: request(accept: nil), page: page,
            logger: logger)
        #expect(response.status == .notFound)
        #expect(body(response) == "Not found|No such page or file.")
    }

    @Test func theErrorsHeadersGoOnItsPage() async throws {
        let response = WOPIResponse(
            answering: SignInRefusal.throttled(retryAfter: 90), to: request(accept: nil), page: page, logger: logger)
        #expect(response.status == .tooManyRequests)
        #expect(response.headers[.retryAfter] == "90")
        #expect(body(response).hasPrefix("Cannot sign in|Too many attempts."))
    }

    @Test func anUnexpectedErrorIsA500ThatNamesNothingOfIt() async throws {
        let pageAnswer = WOPIResponse(answering: Unexpected(), to: request(accept: nil), page: page, logger: logger)
        #expect(pageAnswer.status == .internalServerError)
        #expect(body(pageAnswer) == "Error|The host failed. Try again later.")
        let programAnswer = WOPIResponse(
            answering: Unexpected(), unexpected: WOPIHTTPError(.serviceUnavailable, "Come back later."),
            logger: logger)
        #expect(programAnswer.status == .serviceUnavailable)
    }

    @Test func discoveryFailuresAreTheWOPIClientsFault() async throws {
        let error = DiscoveryError(.fetchFailed, "GET https://office.example/hosting/discovery answered 500.")
        #expect(error.response.status == .badGateway)
        let response = WOPIResponse(answering: error, to: request(accept: nil), page: page, logger: logger)
        #expect(body(response) == "Cannot open|GET https://office.example/hosting/discovery answered 500.")
    }
}
