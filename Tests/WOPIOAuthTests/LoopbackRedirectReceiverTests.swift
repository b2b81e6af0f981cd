import Foundation
import Testing
import WOPIOAuth
import WOPITestSupport

@Suite("Loopback redirect receiver on real sockets")
struct LoopbackRedirectReceiverTests {
    /// How long a test's wait may last. A wait ends as soon as the redirect arrives, so this costs nothing when all
    /// is well; it must only outlast a loaded machine (a 5 s budget ran out with the whole suite on 2 cores, and the
    /// receiver then rightly refused the test's late callback).
    static let patience: Duration = .seconds(60)

    let expectation = AuthorizationResponse.Expectation(state: "state-1")

    private func url(_ receiver: LoopbackRedirectReceiver, _ suffix: String) -> URL {
        let base = receiver.redirectURI.absoluteString
        let origin = base.dropLast(receiver.redirectURI.path.count)
        return URL(string: origin + suffix)!
    }

    /// Whether a fresh connection to the receiver's port is refused.
    /// Whether the receiver no longer answers: its port refuses the connection, or what answers there is not one of
    /// its pages (the OS can give the freed port to another test's server meanwhile). A request that hangs until it
    /// times out is not a closed receiver.
    private func isClosed(_ receiver: LoopbackRedirectReceiver) async -> Bool {
        do {
            let reply = try await httpGet(receiver.redirectURI)
            return !reply.body.contains("You can close this tab.") && !reply.body.contains("Nothing here.")
        } catch let error as URLError {
            return error.code == .cannotConnectToHost
        } catch {
            return false
        }
    }

    @Test func listensOnLoopbackWithAnOSChosenPort() async throws {
        let receiver = try await LoopbackRedirectReceiver.start(logger: quietLogger)
        let uri = receiver.redirectURI
        #expect(uri.scheme == "http")
        #expect(uri.host == "127.0.0.1")
        #expect((uri.port ?? 0) > 0)
        #expect(uri.path == "/callback")
        await receiver.close()
        #expect(await isClosed(receiver))
    }

    @Test func listensOnIPv6Loopback() async throws {
        let receiver = try await LoopbackRedirectReceiver.start(
            configuration: .init(host: .ipv6, path: "/cb"), logger: quietLogger)
        #expect(receiver.redirectURI.absoluteString.hasPrefix("http://[::1]:"))
        async let response = receiver.waitForAuthorizationResponse(expecting: expectation, timeout: Self.patience)
        let page = try await RawSocket.get(url(receiver, "/cb?code=c6&state=state-1"))
        #expect(page.status == 200)
        #expect(try await response.code == "c6")
    }

    @Test func answersOneCallbackAndCloses() async throws {
        let receiver = try await LoopbackRedirectReceiver.start(logger: quietLogger)
        async let response = receiver.waitForAuthorizationResponse(expecting: expectation, timeout: Self.patience)
        let favicon = try await httpGet(url(receiver, "/favicon.ico"))
        #expect(favicon.status == 404)
        let other = try await httpGet(url(receiver, "/callbackx?code=c&state=state-1"))
        #expect(other.status == 404)
        let page = try await httpGet(url(receiver, "/callback?code=the-code&state=state-1"))
        #expect(page.status == 200)
        #expect(page.body.contains("Signed in. You can close this tab."))
        #expect(try await response.code == "the-code")
        #expect(receiver.isFinished)
        #expect(await isClosed(receiver))
    }

    @Test func keepsACallbackThatArrivesBeforeTheWait() async throws {
        let receiver = try await LoopbackRedirectReceiver.start(logger: quietLogger)
        let tab = Task { try await httpGet(url(receiver, "/callback?code=early&state=state-1")) }
        try await Task.sleep(for: .milliseconds(200))
        let response = try await receiver.waitForAuthorizationResponse(expecting: expectation, timeout: Self.patience)
        #expect(response.code == "early")
        #expect(try await tab.value.status == 200)
        #expect(await isClosed(receiver))
    }

    @Test func showsAnErrorPageForARejectedRedirect() async throws {
        let receiver = try await LoopbackRedirectReceiver.start(logger: quietLogger)
        async let response = receiver.waitForAuthorizationResponse(expecting: expectation, timeout: Self.patience)
        let page = try await httpGet(url(receiver, "/callback?code=c&state=other"))
        #expect(page.status == 400)
        #expect(page.body.contains("Sign-in failed"))
        do {
            _ = try await response
            Issue.record("a redirect with the wrong state was accepted")
        } catch let error as OAuthError {
            #expect(error.code == .stateMismatch)
        }
        #expect(await isClosed(receiver))
    }

    /// The 300 s pass on the test clock; a timeout that never fired would hang the wait, which the time limit
    /// catches (a wall-clock bound inside the test failed on a machine loaded by other work).
    @Test(.timeLimit(.minutes(5))) func closesOnTimeout() async throws {
        let receiver = try await LoopbackRedirectReceiver.start(logger: quietLogger)
        let clock = TestClock()
        let wait = Task { [expectation] in
            try await receiver.waitForAuthorizationResponse(
                expecting: expectation, timeout: .seconds(300), clock: clock)
        }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(299))
        #expect(!receiver.isFinished, "the wait goes on until the whole timeout has passed")
        clock.advance(by: .seconds(1))
        do {
            _ = try await wait.value
            Issue.record("returned without a redirect")
        } catch let error as OAuthError {
            #expect(error.code == .timeout)
        }
        #expect(receiver.isFinished)
        #expect(await isClosed(receiver))
    }

    @Test func closesOnCancellation() async throws {
        let receiver = try await LoopbackRedirectReceiver.start(logger: quietLogger)
        let wait = Task {
            try await receiver.waitForAuthorizationResponse(expecting: expectation, timeout: .seconds(30))
        }
        try await Task.sleep(for: .milliseconds(100))
        wait.cancel()
        do {
            _ = try await wait.value
            Issue.record("returned without a redirect")
        } catch let error as OAuthError {
            #expect(error.code == .cancelled)
        }
        #expect(await isClosed(receiver))
    }

    @Test func rejectsABadPath() async {
        await #expect(throws: OAuthError.self) {
            try await LoopbackRedirectReceiver.start(configuration: .init(path: "callback"))
        }
    }
}
