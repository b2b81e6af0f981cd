import ArgumentParser
import Foundation
import Tracing
import WOPITelemetry

/// `wopi`: a command-line WOPI client. Sign in to a WOPI host through the browser, then list, read and write
/// its files the way Office for iOS and Android does.
@main
struct WOPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wopi",
        abstract: "A WOPI client: sign in to a WOPI host, then list, get, put, lock and open its files.",
        discussion: """
            Sign in once with `wopi login https://host/wopibootstrapper`: your browser opens the host's sign-in \
            page (set BROWSER to choose the browser command), and the tokens are kept in \
            $XDG_CONFIG_HOME/wopi (or ~/.config/wopi), readable only by you. PATHs are below the root of the \
            signed-in place, e.g. `Documents/Plan.docx`; `/` is the root.

            Exit codes:
              0  success
              1  another failure (the host failed, a local file could not be written, ...)
              2  usage error (bad arguments, or a name the host refuses)
              3  not signed in (run `wopi login`), or the sign-in expired
              4  not found (no such file or folder on the host)
              5  conflict: the file is locked by someone else, the name is taken, or the folder is not empty
              6  network: the host could not be reached
            """,
        subcommands: [
            LoginCommand.self, LogoutCommand.self, ListCommand.self, StatCommand.self, GetCommand.self,
            PutCommand.self, LockCommand.self, UnlockCommand.self, MkdirCommand.self, MoveCommand.self,
            RemoveCommand.self, OpenURLCommand.self,
        ] + mountSubcommands)

    /// Parses the arguments and runs the command they name: one trace, its WOPI calls child spans of a root span
    /// `wopi NAME`; a mount, which lasts, leaves each call a trace of its own.
    private static func parseAndRun() async throws {
        var command = try parseAsRoot()
        let name = type(of: command).configuration.commandName ?? "wopi"
        func execute() async throws {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        }
        if name == "mount" {
            try await execute()
        } else {
            try await withSpan("wopi \(name)") { _ in try await execute() }
        }
    }

    /// Parses, runs, and exits with the code the failure calls for (see the discussion above).
    static func main() async {
        do {
            // Spans are exported when OTEL_* asks for it (Docs/operations.md, "Traces").
            try await OTLPTracing.withExport(serviceName: "wopi", logger: .cli) { try await parseAndRun() }
        } catch {
            let failure = CLIFailure(error)
            if failure.usesArgumentParser {
                if exitCode(for: error) == .success { exit(withError: error) }
                Console.error(fullMessage(for: error))
            } else {
                Console.error("wopi: \(failure.message)")
            }
            Foundation.exit(failure.code.rawValue)
        }
    }
}
