import Foundation
import HTTPTypes
import SQLiteServerStores
import SQLiteStorage
import Testing
import WOPIAuthorizationServer
import WOPIHTTPEdge
import WOPIServer
import WOPITestSupport

/// Password and client-secret guessing over real HTTP: the back-off, its page and 429 answers, what an honest
/// user sees, that an unknown account cannot be told apart, that the counts survive reopening the SQLite store,
/// and the bound on concurrent password hashes.
@Suite("Sign-in throttle")
struct SignInThrottleTests {
    /// One sign-in attempt as the client sees it: status, `Retry-After`, and the page's message.
    struct Outcome: Equatable, CustomStringConvertible {
        let status: Int
        let retryAfter: String?
        let message: String?
        var description: String { "\(status) Retry-After \(retryAfter ?? "-") \(message ?? "")" }
    }

    static let messages = [
        "The user name or password is incorrect.", "Too many attempts. Try again in ", "The server is busy",
    ]

    static func outcome(_ reply: Web.Reply) -> Outcome {
        let text = reply.text
        let message = messages.compactMap { prefix -> String? in
            guard let range = text.range(of: prefix) else { return nil }
            return String(text[range.lowerBound...].prefix { $0 != "<" })
        }.first
        return Outcome(status: reply.status, retryAfter: reply.header("Retry-After"), message: message)
    }

    static let nativeQuery = TestAuthServer.query(
        client: "native", redirectURI: "http://127.0.0.1/callback", pkce: PKCEPair())

    /// Tries `password` for `username` `times` times with one sign-in page.
    static func attempts(
        _ oauth: TestAuthServer, _ username: String, _ password: String, times: Int = 1,
        headers: [String: String] = [:]
    ) async throws -> [Outcome] {
        let page = try await oauth.get(oauth.authorizeURL + "?" + Web.formEncode(nativeQuery), headers: headers)
        try #require(page.status == 200, "sign-in page: \(page.status)")
        var outcomes: [Outcome] = []
        for _ in 0..<times {
            let fields = page.hiddenFields + [("username", username), ("password", password)]
            var allHeaders = headers
            allHeaders["Cookie"] = page.cookie
            outcomes.append(outcome(try await oauth.postForm(oauth.authorizeURL, fields, headers: allHeaders)))
        }
        return outcomes
    }

    static let wrong = Outcome(status: 200, retryAfter: nil, message: "The user name or password is incorrect.")
    static func locked(_ seconds: Int) -> Outcome {
        Outcome(status: 429, retryAfter: "\(seconds)", message: "Too many attempts. Try again in \(seconds) s.")
    }

    @Test("a guessing loop is slowed: 429 with Retry-After and the page says when; the delay doubles")
    func guessingIsSlowed() async throws {
        try await TestAuthServer.run { oauth in
            let guesses = try await Self.attempts(oauth, "ana", "guess", times: 7)
            #expect(guesses == Array(repeating: Self.wrong, count: 5) + [Self.locked(1), Self.locked(1)])
            oauth.clock.advance(by: 1.0)
            #expect(try await Self.attempts(oauth, "ana", "guess", times: 2) == [Self.wrong, Self.locked(2)])
            oauth.clock.advance(by: 2.0)
            #expect(try await Self.attempts(oauth, "ana", "guess", times: 2) == [Self.wrong, Self.locked(4)])
            // Locked out, even the right password is refused without being checked.
            #expect(try await Self.attempts(oauth, "ana", TestAuthServer.password) == [Self.locked(4)])
        }
    }

    @Test("the honest user who waits signs in, and the success resets the account's count")
    func honestUserWhoWaits() async throws {
        try await TestAuthServer.run { oauth in
            _ = try await Self.attempts(oauth, "ana", "guess", times: 5)
            #expect(try await Self.attempts(oauth, "ana", TestAuthServer.password).first?.status == 429)
            oauth.clock.advance(by: 1.0)
            let signedIn = try await Self.attempts(oauth, "ana", TestAuthServer.password)
            #expect(signedIn.first?.status == 302, "\(signedIn)")
            #expect(try await oauth.server.throttle.failures("account:id:ana") == nil)
            // A fresh allowance: four typos in a row are answered normally again.
            #expect(try await Self.attempts(oauth, "ana", "typo", times: 4) == Array(repeating: Self.wrong, count: 4))
        }
    }

    @Test("an unknown account is throttled exactly like a known one")
    func unknownAccountIndistinguishable() async throws {
        try await TestAuthServer.run { oauth in
            func sequence(_ username: String) async throws -> [Outcome] {
                var outcomes = try await Self.attempts(oauth, username, "guess", times: 7)
                oauth.clock.advance(by: 1.0)
                outcomes += try await Self.attempts(oauth, username, "guess", times: 2)
                return outcomes
            }
            let known = try await sequence("ana@example.com")
            let unknown = try await sequence("nobody@example.com")
            #expect(known == unknown)
            #expect(known.contains(Self.locked(2)))
        }
    }

    @Test("the client address is throttled over every account; X-Forwarded-For is used only when trusted")
    func perAddress() async throws {
        try await TestAuthServer.run(
            overSocket: true, configure: { $0.signInThrottle.trustsForwardedFor = true }
        ) { oauth async throws in
            let attacker = ["X-Forwarded-For": "198.51.100.1, 203.0.113.7"]
            for index in 0..<20 {
                #expect(try await Self.attempts(oauth, "user\(index)", "guess", headers: attacker) == [Self.wrong])
            }
            #expect(try await Self.attempts(oauth, "someone-new", "guess", headers: attacker) == [Self.locked(1)])
            let neighbour = ["X-Forwarded-For": "198.51.100.1, 203.0.113.8"]
            #expect(try await Self.attempts(oauth, "someone-new", "guess", headers: neighbour) == [Self.wrong])
        }
        // Not trusted: the header is ignored, every attempt comes from 127.0.0.1 (the peer address: over a socket).
        try await TestAuthServer.run(overSocket: true) { oauth async throws in
            for index in 0..<20 {
                let headers = ["X-Forwarded-For": "203.0.113.\(index)"]
                #expect(try await Self.attempts(oauth, "user\(index)", "guess", headers: headers) == [Self.wrong])
            }
            #expect(try await Self.attempts(oauth, "someone-new", "guess") == [Self.locked(1)])
        }
    }

    @Test("the counts survive reopening the SQLite store")
    func countsSurviveReopening() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.appending("wopi.sqlite").path
        let clock = TestClock()
        try await TestAuthServer.run(
            throttle: try SQLiteSignInThrottleStore(database: SQLiteDatabase(path: path)), clock: clock
        ) { oauth async throws in
            #expect(try await Self.attempts(oauth, "ana", "guess", times: 5) == Array(repeating: Self.wrong, count: 5))
        }
        try await TestAuthServer.run(
            throttle: try SQLiteSignInThrottleStore(database: SQLiteDatabase(path: path)), clock: clock
        ) { oauth async throws in
            #expect(try await Self.attempts(oauth, "ana", TestAuthServer.password) == [Self.locked(1)])
            clock.advance(by: 1.0)
            #expect(try await Self.attempts(oauth, "ana", TestAuthServer.password).first?.status == 302)
        }
    }

    @Test("the token endpoint throttles a guessed client secret, an unknown client alike; 429 with Retry-After")
    func tokenEndpoint() async throws {
        try await TestAuthServer.run { oauth in
            func guesses(_ client: String) async throws -> [String] {
                var outcomes: [String] = []
                for _ in 0..<6 {
                    let reply = try await oauth.postForm(
                        oauth.tokenURL, [("grant_type", "authorization_code"), ("code", "x")],
                        headers: ["Authorization": Web.basic(client, "guessed-secret")])
                    let error = (try? reply.json()["error"] as? String) ?? "-"
                    outcomes.append("\(reply.status) \(error) \(reply.header("Retry-After") ?? "-")")
                }
                return outcomes
            }
            let office = try await guesses("office")
            #expect(
                office
                    == Array(repeating: "401 invalid_client -", count: 5) + ["429 temporarily_unavailable 1"])
            #expect(try await guesses("no-such-client") == office)
            oauth.clock.advance(by: 1.0)
            let honest = try await oauth.postForm(
                oauth.tokenURL, [("grant_type", "authorization_code"), ("code", "x")],
                headers: ["Authorization": Web.basic("office", TestAuthServer.officeSecret)])
            #expect(honest.status == 400, "the right secret passes client authentication: \(honest.text)")
            #expect(try honest.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("a flood of sign-ins runs at most the configured number of password hashes at once; the excess gets 503")
    func concurrentHashBound() async throws {
        try await TestAuthServer.run(configure: {
            $0.passwordHasher = PasswordHasher(logN: 14)
            $0.passwordHashLimits.concurrency = 1
            $0.passwordHashLimits.queueLimit = 2
        }) { oauth in
            let page = try await oauth.get(oauth.authorizeURL + "?" + Web.formEncode(Self.nativeQuery))
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        let fields = page.hiddenFields + [("username", "flood\(index)"), ("password", "guess")]
                        return Self.outcome(
                            try await oauth.postForm(oauth.authorizeURL, fields, headers: ["Cookie": page.cookie ?? ""])
                        )
                    }
                }
                var outcomes: [Outcome] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            #expect(await oauth.server.hashLimiter.peak == 1)
            let busy = outcomes.filter { $0.status == 503 }
            #expect(!busy.isEmpty, "\(outcomes)")
            #expect(busy.allSatisfy { $0.retryAfter == "5" && $0.message?.hasPrefix("The server is busy") == true })
            #expect(outcomes.filter { $0 == Self.wrong }.count + busy.count == 12, "\(outcomes)")
        }
    }

    /// Sends `count` sign-ins at once, one per `username(index)`, each with its own page, and returns the outcomes.
    static func parallelAttempts(
        _ oauth: TestAuthServer, count: Int, username: @escaping @Sendable (Int) -> String
    ) async throws -> [Outcome] {
        var pages: [Web.Reply] = []
        for _ in 0..<count {
            pages.append(try await oauth.get(oauth.authorizeURL + "?" + Web.formEncode(nativeQuery)))
        }
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            for (index, page) in pages.enumerated() {
                group.addTask {
                    let fields = page.hiddenFields + [("username", username(index)), ("password", "Winter2026")]
                    return Self.outcome(
                        try await oauth.postForm(oauth.authorizeURL, fields, headers: ["Cookie": page.cookie ?? ""]))
                }
            }
            var outcomes: [Outcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    @Test("40 wrong passwords sent at once check 5 (the allowance), not 40; the rest are refused unhashed")
    func parallelGuessesAreReservedBeforeTheHash() async throws {
        try await TestAuthServer.run(configure: { $0.passwordHasher = PasswordHasher(logN: 14) }) { oauth in
            let outcomes = try await Self.parallelAttempts(oauth, count: 40) { _ in "ana" }
            #expect(outcomes.filter { $0 == Self.wrong }.count == 5, "\(outcomes)")
            #expect(outcomes.filter { $0.status == 429 }.count == 35, "\(outcomes)")
            #expect(await oauth.server.hashLimiter.peak <= 5)
            // Once the lock-out has run out, parallel guesses get one try at a time.
            oauth.clock.advance(by: 1.0)
            let again = try await Self.parallelAttempts(oauth, count: 40) { _ in "ana" }
            #expect(again.filter { $0 == Self.wrong }.count == 1, "\(again)")
            // The host pages' sign-in takes the same reservations.
            oauth.clock.advance(by: 2.0)
            let request = WOPIRequest(head: .init(method: .post, scheme: "http", authority: "x", path: "/signin"))
            let pages = await withTaskGroup(of: String.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        do {
                            _ = try await oauth.server.authenticate("ana", password: "guess", request: request)
                            return "checked"
                        } catch let refusal as SignInRefusal {
                            return "\(refusal.status.code)"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(pages.filter { $0 == "checked" }.count == 1, "\(pages)")
            #expect(pages.filter { $0 == "429" }.count == 39, "\(pages)")
        }
    }

    @Test("a spray of 40 accounts at once from one address checks 20 (the address allowance)")
    func parallelSprayIsReservedPerAddress() async throws {
        // 20 hashes are checked, one per account, as many at a time as the machine has cores but one (one on a 2-core
        // machine): at logN 14 the last answer came after the client's 60 s deadline on a loaded 2-core debug run;
        // at 12 each hash still outlasts the 40 requests' arrival.
        try await TestAuthServer.run(
            overSocket: true, configure: { $0.passwordHasher = PasswordHasher(logN: 12) }
        ) { oauth async throws in
            let outcomes = try await Self.parallelAttempts(oauth, count: 40) { "user\($0)" }
            #expect(outcomes.filter { $0 == Self.wrong }.count == 20, "\(outcomes)")
            #expect(outcomes.filter { $0.status == 429 }.count == 20, "\(outcomes)")
        }
    }
}
