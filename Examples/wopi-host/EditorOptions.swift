import ArgumentParser
import Foundation
import WOPIDeployment
import WOPIModels
import WOPIServer

/// `serve`'s WOPI client: its discovery (which turns on the host pages and proof keys), how the host answers it, and
/// what CheckFileInfo tells it (``EditorDecorator``).
struct EditorOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The WOPI client's discovery URL (Office for the web, Collabora Online, ONLYOFFICE).",
            discussion: "Turns on the host pages (/files, /open/ID) and proof-key checks on every WOPI request."))
    var discoveryURL: String?
    @Option(name: .long, help: "Like --discovery-url, from a discovery XML file.") var discoveryFile: String?
    @Flag(
        name: .long,
        help: "Development only: accept WOPI requests without valid proof keys although discovery is set.")
    var noProofCheck = false
    @Option(name: .long, help: "The WOPI client's interface language (UI_LLCC), e.g. en-US.") var uiLanguage = "en-US"
    @Flag(
        name: .long,
        help: "Answer Lock, RefreshLock and Unlock from view-only users with 200 and no lock (for ONLYOFFICE).")
    var acknowledgeViewOnlyLocks = false
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a lock lasts once the last editing session of the host pages was closed without an Unlock.",
            discussion: "Without it, such a lock lapses after the protocol's 30 minutes."))
    var lockGraceAfterClose: Int?
    @Option(
        name: .long,
        help: "A user who administers the host (IsAdminUser for Collabora Online); repeat for several.")
    var admin: [String] = []

    func validate() throws {
        if let lockGraceAfterClose, lockGraceAfterClose < 0 {
            throw ValidationError("--lock-grace-after-close must be 0 seconds or more.")
        }
        _ = try discoverySource()
    }

    /// Sets the WOPI client's part of `configuration`.
    func apply(to configuration: inout WOPIDeployment.Configuration) throws {
        configuration.discovery = try discoverySource()
        configuration.host.proofKeyCheckDisabled = noProofCheck
        configuration.actionURLOptions = ActionURLOptions(uiLanguage: uiLanguage)
        configuration.host.viewOnlyLocks = acknowledgeViewOnlyLocks ? .acknowledge : .refuse
        if let lockGraceAfterClose {
            configuration.host.endedSessionLocks = .releaseAfterClose(grace: TimeInterval(lockGraceAfterClose))
        }
        if noProofCheck { Console.line("warning: proof-key checking is off (--no-proof-check); development only") }
    }

    /// What the host adds to CheckFileInfo for the editors.
    var decorators: [any InfoDecorator] { [EditorDecorator(admins: Set(admin))] }

    /// The discovery of `--discovery-url` or `--discovery-file`, or `nil`.
    private func discoverySource() throws -> DiscoverySource? {
        switch (discoveryURL, discoveryFile) {
        case (nil, nil):
            if noProofCheck { throw ValidationError("--no-proof-check needs --discovery-url or --discovery-file.") }
            return nil
        case (let url?, nil):
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                throw ValidationError("--discovery-url must be an http(s) URL.")
            }
            #if TLS
                return .http(url)
            #else
                throw ValidationFailure.leftOut("--discovery-url", trait: "TLS")
            #endif
        case (nil, let path?):
            return .file(path)
        default:
            throw ValidationError("Give --discovery-url or --discovery-file, not both.")
        }
    }
}
