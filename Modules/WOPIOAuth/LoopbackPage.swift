import NIOHTTP1
import WOPIModels

/// The small HTML page the loopback receiver answers the browser with.
struct LoopbackPage: Sendable {
    var status: HTTPResponseStatus
    var title: String
    var message: String

    /// The page after a successful sign-in.
    static let signedIn = LoopbackPage(
        status: .ok, title: "Signed in", message: "Signed in. You can close this tab.")

    /// The page for any path other than the callback (for example `/favicon.ico`).
    static let notFound = LoopbackPage(status: .notFound, title: "Not found", message: "Nothing here.")

    /// The page for a second callback after the first one was handled.
    static let alreadyHandled = LoopbackPage(
        status: .gone, title: "Already handled",
        message: "This sign-in was already completed or abandoned. You can close this tab.")

    /// The page for a sign-in that failed.
    static func failed(_ error: OAuthError) -> LoopbackPage {
        var message = "Sign-in failed: \(error.message)"
        if let description = error.serverDescription {
            message += " The server said: \(description.prefix(300))"
        }
        return LoopbackPage(status: .badRequest, title: "Sign-in failed", message: message + " You can close this tab.")
    }

    /// The page as a complete HTML document, with the texts escaped.
    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(HTMLEscaping.escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1"></head>
        <body style="font-family: system-ui, sans-serif; margin: 3em;"><p>\(HTMLEscaping.escape(message))</p></body></html>

        """
    }
}
