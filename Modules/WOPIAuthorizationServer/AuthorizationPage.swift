import Crypto
import Foundation
import HTTPTypes
import NIOCore
import WOPIHTTPEdge
import WOPIModels
import WOPIOAuthCore

/// The HTML of the sign-in page and the error page: no script, one stylesheet allowed by its hash, sized for
/// phones and tablets.
enum AuthorizationPage {
    /// The sign-in form for `request`.
    static func signIn(
        _ request: AuthorizationRequest, formToken: String, formAction: String, message: String?, username: String?,
        configuration: OAuthAuthorizationServer.Configuration
    ) -> String {
        let hidden = (request.carried + [(name: "form_token", value: formToken)]).map {
            "<input type=\"hidden\" name=\"\(HTMLEscaping.escape($0.name))\" value=\"\(HTMLEscaping.escape($0.value))\">"
        }
        let app = request.client.name ?? request.client.id
        let alert =
            message.map { "<p class=\"error\" role=\"alert\" id=\"error\">\(HTMLEscaping.escape($0))</p>" } ?? ""
        let body = """
            <h1>Sign in to \(HTMLEscaping.escape(configuration.serviceName))</h1>
            <p class="lead">\(HTMLEscaping.escape(app)) wants to open your files.</p>
            \(alert)
            <form method="post" action="\(HTMLEscaping.escape(formAction))" autocomplete="on">
            \(hidden.joined(separator: "\n"))
            <label for="username">User name or email</label>
            <input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" \
            autocorrect="off" spellcheck="false" required value="\(HTMLEscaping.escape(username ?? ""))"\(username == nil ? " autofocus" : "")>
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required\
            \(username == nil ? "" : " autofocus")>
            <button type="submit" id="submit">Sign in</button>
            </form>
            """
        return document(title: "Sign in to \(configuration.serviceName)", body: body, configuration: configuration)
    }

    /// A page explaining why the request cannot go on (an unknown client or redirect URI).
    static func error(_ message: String, configuration: OAuthAuthorizationServer.Configuration) -> String {
        let body = """
            <h1>This sign-in cannot continue</h1>
            <p class="error" role="alert" id="error">\(HTMLEscaping.escape(message))</p>
            <p>Close this page and start again from the app.</p>
            """
        return document(title: "Sign-in error", body: body, configuration: configuration)
    }

    /// An HTML response with the page's security headers.
    ///
    /// - Parameter formAction: the CSP `form-action` sources beyond `'self'`: the origin the form finally
    ///   redirects to (browsers apply `form-action` to the redirect after a POST); `nil` leaves the directive out
    ///   when that origin cannot be expressed in CSP (an IPv6 loopback literal).
    static func response(
        _ html: String, status: HTTPResponse.Status, formAction: [String]? = [], cookie: String? = nil,
        retryAfter: Int? = nil
    ) -> WOPIResponse {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.pragma] = "no-cache"
        headers[.contentSecurityPolicy] = contentSecurityPolicy(formAction: formAction)
        headers[.xFrameOptions] = "DENY"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        if let cookie { headers[.setCookie] = cookie }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return WOPIResponse(status: status, headers: headers, body: .buffer(ByteBuffer(string: html)))
    }

    // MARK: - Parts

    private static func document(
        title: String, body: String, configuration: OAuthAuthorizationServer.Configuration
    ) -> String {
        let privacy =
            configuration.privacyStatementURL.map {
                "<footer><a href=\"\(HTMLEscaping.escape($0))\" id=\"privacy\" target=\"_blank\" rel=\"noopener\">Privacy statement</a></footer>"
            } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
            <meta name="referrer" content="no-referrer">
            <title>\(HTMLEscaping.escape(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            <main>
            \(body)
            </main>
            \(privacy)
            </body>
            </html>
            """
    }

    static let style = """
        :root{color-scheme:light dark;font-family:-apple-system,system-ui,"Segoe UI",Roboto,sans-serif}\
        body{margin:0;padding:max(1rem,env(safe-area-inset-top)) max(1rem,env(safe-area-inset-right)) \
        max(1rem,env(safe-area-inset-bottom)) max(1rem,env(safe-area-inset-left));display:flex;\
        flex-direction:column;align-items:center;min-height:100vh;box-sizing:border-box}\
        main{width:100%;max-width:26rem;margin-top:8vh}h1{font-size:1.5rem;margin:0 0 .5rem}\
        .lead{margin:0 0 1.5rem;opacity:.8}label{display:block;margin:1rem 0 .35rem;font-weight:600}\
        input[type=text],input[type=password]{width:100%;box-sizing:border-box;font-size:16px;padding:.75rem;\
        border:1px solid #8a8a8a;border-radius:.5rem;background:Canvas;color:CanvasText}\
        button{margin-top:1.5rem;width:100%;min-height:3rem;font-size:1rem;font-weight:600;border:0;\
        border-radius:.5rem;background:#185abd;color:#fff}\
        .error{padding:.75rem;border-radius:.5rem;background:#fde7e9;color:#a4262c}\
        footer{margin-top:auto;padding-top:2rem;font-size:.875rem}
        """

    /// The CSP `style-src` hash of ``style``.
    static let styleHash = "'sha256-" + Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString() + "'"

    /// No scripts, no frames, no plug-ins; only our stylesheet; the form posts to us and may redirect to the client.
    static func contentSecurityPolicy(formAction: [String]?) -> String {
        var directives = ["default-src 'none'", "style-src \(styleHash)", "img-src 'self'"]
        if let formAction { directives.append((["form-action 'self'"] + formAction).joined(separator: " ")) }
        return (directives + ["frame-ancestors 'none'", "base-uri 'none'"]).joined(separator: "; ")
    }

    /// The CSP source for a redirect URI: its origin, any port for a loopback URI, the scheme for a private one.
    static func cspSource(forRedirectURI uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
            return nil
        }
        if scheme != "http" && scheme != "https" { return scheme + ":" }
        guard let host = components.host, !host.contains(":") else { return nil }
        if LoopbackURI(uri) != nil { return "\(scheme)://\(host):*" }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }
}
