import ArgumentParser

/// `wopi-host`: an example WOPI host built from WOPIKit's modules. Copy it as a starting point.
@main
struct WOPIHostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wopi-host",
        abstract: "An example WOPI host for Microsoft Office, built on WOPIKit.",
        subcommands: [
            ServeCommand.self, UserCommand.self, ClientCommand.self, ImportCommand.self, TokenCommand.self,
            ShareCommand.self, UnshareCommand.self, SharesCommand.self,
        ] + mountSubcommands)
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

    func open() throws -> DataDirectory {
        try DataDirectory(path: data, storage: storage)
    }
}

extension DataDirectory.StorageKind: ExpressibleByArgument {}
