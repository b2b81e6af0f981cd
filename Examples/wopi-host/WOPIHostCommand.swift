import ArgumentParser
import Foundation
import S3ObjectStore
import WOPITelemetry

/// `wopi-host`: an example WOPI host built from WOPIKit's modules. Copy it as a starting point.
@main
struct WOPIHostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wopi-host",
        abstract: "An example WOPI host for Microsoft Office, built on WOPIKit.",
        subcommands: [
            ServeCommand.self, UserCommand.self, ClientCommand.self, ImportCommand.self, TokenCommand.self,
            ShareCommand.self, UnshareCommand.self, SharesCommand.self, LocksCommand.self, AuditCommand.self,
            VersionsCommand.self, RestoreCommand.self, KeepCommand.self, RetentionCommand.self, QuotaCommand.self,
        ] + mountSubcommands)

    /// Installs the log handler every command logs through (control characters escaped, the OTLP exporter's
    /// credentials redacted), then runs the command.
    static func main() async {
        SanitizingLogHandler.bootstrap(redacting: OTLPTracing.secrets(in: ProcessInfo.processInfo.environment))
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Options every subcommand shares.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: "The data directory.")
    var data: String = "./wopi-data"

    @Option(
        name: .long,
        help:
            "The storage of a new data directory: \(DataDirectory.StorageKind.allCases.map(\.rawValue).joined(separator: ", "))."
    )
    var storage: DataDirectory.StorageKind?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL database for every store and the signing keys, shared by every host started with it.",
            discussion: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?pool=N]; --data then keeps only local files.",
            valueName: "url"))
    var database: String?

    @Option(
        name: .customLong("object-store"),
        help: ArgumentHelp(
            "An S3 bucket for the content of files, beside the sqlite storage or the --database.",
            discussion: """
                s3://BUCKET?endpoint=http://HOST:PORT&region=REGION&addressing=path; the keys come from \
                AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or credentials-file=PATH). Every process on the data \
                (or the database) must use the same bucket.
                """,
            valueName: "url"))
    var objectStore: String?

    /// The data directory, with its database pool when `--database` names one. A command that serves keeps the
    /// pool's connections open; the others (one statement or a few, then exit) open them as they need them.
    func open(serving: Bool = false) async throws -> DataDirectory {
        var directory = try DataDirectory(path: data, storage: storage)
        if let objectStore {
            guard directory.settings.storage == .sqlite || database != nil else {
                throw ValidationFailure(
                    "--object-store keeps the content of sqlite storage or of a --database; \(data) holds fs storage.")
            }
            do {
                directory.objectStore = try S3ObjectStore.Configuration(url: objectStore)
            } catch {
                throw ValidationFailure("--object-store: \(error)")
            }
        }
        if let database {
            #if PostgreSQL
                directory.database = try await DataDirectory.openDatabase(
                    url: database, keepingConnectionsOpen: serving)
            #else
                _ = database
                throw ValidationFailure.leftOut("--database", trait: "PostgreSQL")
            #endif
        }
        return directory
    }
}

extension DataDirectory.StorageKind: ExpressibleByArgument {}
