import Foundation
import NIOHTTP1
import Testing
import WOPITestSupport

/// What a provider inherits from `WOPIDeployment`, probed on the example host over its socket as an attacker
/// would: the sign-in throttle on `/signin`, login CSRF, the session cookie behind a TLS proxy, sign-out, share-link
/// revocation, the default upload cap and the idle timeout.
@Suite(.serialized) struct HostSecurityTests {
    /// The sign-in form of `/signin`: its form token and the browser cookie it is bound to.
    struct SignInForm {
        var token: String
        var cookie: String
    }

    static func signInForm(_ host: String) async throws -> SignInForm {
        let page = try await HTTP.get(host + "/signin")
        try #require(page.status == 200)
        let marker = "name=\"form_token\" value=\""
        let start = try #require(page.text.range(of: marker)).upperBound
        let token = String(page.text[start...].prefix { $0 != "\"" })
        let setCookie = try #require(page.header("Set-Cookie"))
        return SignInForm(token: token, cookie: String(setCookie.prefix { $0 != ";" }))
    }

    static func signIn(
        _ host: String, _ username: String, _ password: String, form: SignInForm?, headers: [String: String] = [:]
    ) async throws -> HTTP.Reply {
        var fields = ["username=\(username)", "password=\(password)", "next=%2Ffiles"]
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        if let form {
            fields.append("form_token=\(form.token)")
            all["Cookie"] = [form.cookie, headers["Cookie"]].compactMap { $0 }.joined(separator: "; ")
        }
        return try await HTTP.post(host + "/signin", all, body: fields.joined(separator: "&"))
    }

    static func sessionCookie(_ reply: HTTP.Reply) -> String? {
        reply.headers["Set-Cookie"].first {
            $0.hasPrefix("wopikit_session=") || $0.hasPrefix("__Host-wopikit_session=")
        }
    }

    @Test("/signin: a spray of one wrong password over 30 accounts from one address is throttled (429)")
    func signInSprayIsThrottledPerAddress() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in
            let form = try await Self.signInForm(host)
            var statuses: [Int] = []
            for account in 0..<30 {
                statuses.append(try await Self.signIn(host, "user\(account)", "Winter2026", form: form).status)
            }
            #expect(statuses.first == 401, "a wrong password is refused")
            // The address allowance is 20 failures: the 21st try is refused. A refusal locks the address out for
            // 1 s, doubling; a refused try costs no hash and comes back at once, so the rest are refused too,
            // but for the odd one a loaded machine lets through after a lock-out ran out. This host runs on the
            // wall clock, and a loaded machine can hash the 20th password for longer than the first 1 s lock-out
            // lasts, so the first refusal may come one or two tries late; SignInThrottleTests checks the exact
            // count with a test clock.
            #expect(statuses[..<20].allSatisfy { $0 == 401 }, "the allowance is not cut short: \(statuses)")
            let firstRefusal = try #require(statuses.firstIndex(of: 429), "no 429 in \(statuses)")
            #expect((20...22).contains(firstRefusal), "\(statuses)")
            let after = statuses[firstRefusal...]
            #expect(after.filter { $0 == 429 }.count > after.count / 2, "\(statuses)")
            #expect(after.allSatisfy { $0 == 429 || $0 == 401 }, "\(statuses)")
        }
    }

    @Test("/signin refuses a cross-site post and one without the form token: no session (login CSRF)")
    func signInRefusesCrossSitePosts() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in
            let form = try await Self.signInForm(host)
            let crossSite = try await Self.signIn(
                host, "demo", "demo", form: form, headers: ["Origin": "https://evil.example"])
            #expect(crossSite.status == 403)
            #expect(Self.sessionCookie(crossSite) == nil)
            let noToken = try await Self.signIn(host, "demo", "demo", form: nil)
            #expect(noToken.status == 403)
            #expect(Self.sessionCookie(noToken) == nil)
            var stolen = form
            stolen.cookie = "wopikit_signin=" + String(repeating: "b", count: 43)  // well-formed, another browser
            #expect(try await Self.signIn(host, "demo", "demo", form: stolen).status == 403, "token of another browser")

            let sameSite = try await Self.signIn(host, "demo", "demo", form: form, headers: ["Origin": host])
            #expect(sameSite.status == 303)
            // The same host by another name (localhost for 127.0.0.1) is the page's own origin too.
            let byName = host.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let named = try await Self.signIn(byName, "demo", "demo", form: form, headers: ["Origin": byName])
            #expect(named.status == 303, "\(named.status) \(named.text.prefix(300))")
            let cookie = try #require(Self.sessionCookie(sameSite))
            #expect(!cookie.contains("Secure"), "plain HTTP: no Secure")
            #expect(cookie.contains("Max-Age=7200"), "a session lasts 2 hours: \(cookie)")
        }
    }

    @Test("behind a TLS proxy the session cookie is __Host- and Secure, read only under that name; /signout removes it")
    func sessionCookieBehindAProxyAndSignOut() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in
            let form = try await Self.signInForm(host)
            let reply = try await Self.signIn(host, "demo", "demo", form: form, headers: ["X-Forwarded-Proto": "https"])
            #expect(reply.status == 303)
            let cookie = try #require(Self.sessionCookie(reply))
            #expect(cookie.hasPrefix("__Host-wopikit_session=") && cookie.contains("; Secure"), "\(cookie)")
            #expect(cookie.contains("Path=/;") && !cookie.contains("Domain"), "\(cookie)")
            let session = String(cookie.prefix { $0 != ";" })
            let https = ["Cookie": session, "X-Forwarded-Proto": "https"]
            #expect(try await HTTP.get(host + "/files", headers: https).status == 200)
            // Over HTTPS, a cookie without the prefix (one a subdomain could set) is no session.
            let unprefixed = String(session.dropFirst("__Host-".count))
            let planted = try await HTTP.get(
                host + "/files", headers: ["Cookie": unprefixed, "X-Forwarded-Proto": "https"])
            #expect(planted.status == 303)

            let signOut = try await HTTP.post(host + "/signout", https)
            #expect(signOut.status == 303)
            let removed = try #require(Self.sessionCookie(signOut))
            #expect(removed.hasPrefix("__Host-wopikit_session=;") && removed.contains("Max-Age=0"), "\(removed)")
        }
    }

    @Test("a share link: revoking the share revokes its links; a link never changes an existing share")
    func shareLinksCanBeRevoked() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.url.path
        try await HostProcess(dataDirectory: directory.url).serving { host in
            _ = try await HostProcess.run(
                ["user", "add", "bob", "--data", data, "--password-stdin"], input: "bob-pw\n")
            let welcome = try await HostProcess.token(data: directory.url, file: "Welcome.docx")
            func link(_ type: String) async throws -> String {
                let reply = try await HTTP.post(
                    "\(welcome.wopiSrc)?access_token=\(welcome.accessToken)",
                    ["X-WOPI-Override": "GET_SHARE_URL", "X-WOPI-UrlType": type])
                try #require(reply.status == 200)
                return try #require(try reply.json()["ShareUrl"] as? String)
            }
            let form = try await Self.signInForm(host)
            let bob = String(
                try #require(Self.sessionCookie(try await Self.signIn(host, "bob", "bob-pw", form: form)))
                    .prefix { $0 != ";" })
            func shares(_ user: String) async throws -> String {
                try await HostProcess.run(["shares", "--data", data, "--user", user])
            }

            let readOnly = try await link("ReadOnly")
            #expect(try await HTTP.get(readOnly, headers: ["Cookie": bob]).status == 303, "redeemed")
            #expect(try await shares("bob").contains("Shared with me/Welcome.docx  by demo  view"))
            #expect(try await shares("demo").contains("Welcome.docx  link "), "the owner lists the link")

            // A ReadWrite link does not turn bob's view share into edit.
            let readWrite = try await link("ReadWrite")
            #expect(try await HTTP.get(readWrite, headers: ["Cookie": bob]).status == 303)
            #expect(try await shares("bob").contains("Welcome.docx  by demo  view"))
            #expect(!(try await shares("bob")).contains("edit"))

            // Unsharing revokes the links: bob cannot take the share back.
            _ = try await HostProcess.run([
                "unshare", "--data", data, "--user", "demo", "Welcome.docx", "--with", "bob",
            ])
            let again = try await HTTP.get(readOnly, headers: ["Cookie": bob])
            #expect(again.status == 404)
            #expect(again.text.contains("not valid any more"))
            #expect(try await HTTP.get(readWrite, headers: ["Cookie": bob]).status == 404)
            #expect(try await shares("bob").contains("Shared with bob: nothing"))
            #expect(!(try await shares("demo")).contains("link "), "no link is left")

            // One link revoked by its ID.
            let fresh = try await link("ReadOnly")
            let listed = try await shares("demo")
            let id = String(listed[try #require(listed.range(of: "link ")).upperBound...].prefix { $0 != " " })
            _ = try await HostProcess.run(["unshare", "--data", data, "--user", "demo", "Welcome.docx", "--link", id])
            #expect(try await HTTP.get(fresh, headers: ["Cookie": bob]).status == 404)

            // A link ID is base64url: one in 64 begins with "-", which must not read as an option.
            let dashed = await #expect(throws: HostProcessError.self) {
                try await HostProcess.run([
                    "unshare", "--data", data, "--user", "demo", "Welcome.docx", "--link", "-Mx",
                ])
            }
            #expect(
                dashed?.description.contains("Welcome.docx has no share link -Mx.") == true,
                "\(String(describing: dashed))")
        }
    }

    @Test("a PutFile whose Content-Length passes the default 1 GiB cap is refused before its body is read")
    func uploadsAreCappedByDefault() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in
            let notes = try await HostProcess.token(data: directory.url, file: "Notes.txt")
            let before = try await HTTP.get("\(notes.wopiSrc)/contents?access_token=\(notes.accessToken)").text
            let target = try #require(URL(string: "\(notes.wopiSrc)/contents?access_token=\(notes.accessToken)"))
            // Headers only: a server that read the body first would wait for 2 GiB that never come.
            let answer = try await RawSocket.exchange(
                with: try #require(URL(string: host)),
                "POST \(target.path)?\(target.query ?? "") HTTP/1.1\r\nHost: x\r\nX-WOPI-Override: PUT\r\n"
                    + "Content-Length: \(2 << 30)\r\n\r\n", headOnly: true)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
            #expect(try await HTTP.get("\(notes.wopiSrc)/contents?access_token=\(notes.accessToken)").text == before)
        }
    }

    @Test("a connection that never finishes its headers is closed after the idle timeout")
    func halfOpenConnectionsAreClosed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(dataDirectory: directory.url, extraArguments: ["--idle-timeout", "1"])
        try await host.serving { url in
            let answer = try await RawSocket.exchange(
                with: try #require(URL(string: url)), "GET /health HTTP/1.1\r\nHo")
            #expect(answer == "", "closed without an answer: \(answer)")
        }
    }

    @Test("a Transfer-Encoding other than chunked is a 400 that closes the connection: its body is no request")
    func unknownTransferEncodingIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await HostProcess(dataDirectory: directory.url).serving { host in
            let url = try #require(URL(string: host))
            for coding in ["xchunked", "gzip, chunked", "chunked, identity"] {
                // Were the body read as a second request, the smuggled GET would get an answer of its own.
                let body = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
                let answer = try await RawSocket.exchange(
                    with: url,
                    "POST /signin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\n\(body)")
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(coding): \(answer.prefix(200))")
                #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(coding): one answer: \(answer)")
            }
            #expect(try await HTTP.get(host + "/health").status == 200)
        }
    }

    @Test("a head that never completes is closed after --header-timeout, well before the idle timeout")
    func headerTimeoutIsItsOwn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let host = try HostProcess(
            dataDirectory: directory.url, extraArguments: ["--idle-timeout", "60", "--header-timeout", "1"])
        try await host.serving { url in
            let started = ContinuousClock.now
            let answer = try await RawSocket.exchange(
                with: try #require(URL(string: url)), "GET /health HTTP/1.1\r\nHo")
            #expect(answer == "", "closed without an answer: \(answer)")
            #expect(ContinuousClock.now - started < .seconds(20), "the header timeout, not the 60 s idle timeout")
        }
    }

    @Test("serve refuses a port out of range instead of wrapping it")
    func servePortIsValidated() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await ChildProcess.run(
            HostProcess.executable, ["serve", "--data", directory.url.path, "--port", "99999"])
        #expect(result.status != 0)
        #expect(result.error.contains("--port must be 0 to 65535"), "\(result.error)")
    }
}
