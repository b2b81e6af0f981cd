import ArgumentParser
import WOPIClient
import WOPIOAuth

/// The exit codes of `wopi` (listed in `wopi --help`).
enum CLIExitCode: Int32 {
    case success = 0
    case other = 1
    case usage = 2
    case notSignedIn = 3
    case notFound = 4
    case conflict = 5
    case network = 6
}

/// A failure of a `wopi` command: a message that says what to do, and the exit code.
struct CLIFailure: Error {
    var code: CLIExitCode
    var message: String
    /// Argument parsing errors are printed by ArgumentParser itself (with usage).
    var usesArgumentParser = false

    init(_ code: CLIExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The failure for any error a command threw.
    init(_ error: any Error) {
        switch error {
        case let failure as CLIFailure:
            self = failure
        case let error as WOPIClientError:
            self.init(Self.code(for: error), error.message)
        case let error as OAuthError:
            let code: CLIExitCode =
                error.requiresSignIn
                ? .notSignedIn : (error.code == .transport || error.code == .timeout ? .network : .other)
            self.init(code, error.message + (error.serverDescription.map { " (\($0))" } ?? ""))
        case is CleanExit:
            self.init(.success, "")
            usesArgumentParser = true
        case is ValidationError:
            self.init(.usage, "\(error)")
            usesArgumentParser = true
        default:
            let parserCode = WOPICommand.exitCode(for: error)
            if parserCode == .validationFailure {
                self.init(.usage, "\(error)")
                usesArgumentParser = true
            } else if parserCode == .success {
                self.init(.success, "")
                usesArgumentParser = true
            } else {
                self.init(.other, "\(error)")
            }
        }
    }

    static func code(for error: WOPIClientError) -> CLIExitCode {
        switch error.code {
        case .unauthorized, .signInRequired: .notSignedIn
        case .notFound: .notFound
        case .lockConflict, .conflict: .conflict
        case .transport: .network
        case .invalidName, .badRequest: .usage
        default: .other
        }
    }
}
