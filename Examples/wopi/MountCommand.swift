import WOPIModels
import WOPIStorage

// FUSE is Linux-only: on other platforms the command is left out (see Docs/fuse-mount.md).
#if canImport(FUSEMount)
    import ArgumentParser
    import FUSEMount
    import Foundation
    import WOPIClient

    /// `wopi mount MOUNTPOINT`: the signed-in place as a Linux file system (FUSE).
    struct MountCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mount", abstract: "Mount the signed-in place at a directory, to use its files with any tool.",
            discussion: """
                Serves until Ctrl-C, SIGTERM or `fusermount3 -u MOUNTPOINT`, then uploads what is pending and \
                unmounts. A file opened for writing is locked on the host (as Office does), edited in a local copy and \
                uploaded when it is closed or synced; a file locked by someone else can only be read. When the file \
                changed on the host meanwhile, the local copy is kept as a conflict file beside it and the save fails. \
                Needs /dev/fuse and fusermount3 (Debian: fuse3).

                The command stays in the foreground (a Swift process cannot fork safely once its threads run); -f is \
                accepted for compatibility. Run it with `&`, under `systemd-run --user`, or in a terminal of its own.
                """)

        @OptionGroup var options: GlobalOptions
        @Argument(help: "An empty directory to mount the place at.") var mountPoint: String
        @Flag(name: [.customShort("f"), .long], help: "Stay in the foreground (always the case).") var foreground =
            false
        @Flag(name: .customLong("ro"), help: "Mount read-only: nothing is locked or written.") var readOnly = false
        @Option(name: .long, help: "Seconds a host call may take before the file operation fails with EIO.")
        var timeout = 30
        @Flag(
            name: .customLong("allow-other"),
            help: """
                Let other users use the mount too; the kernel checks each access against the modes and owners set \
                through it. Non-root users need user_allow_other in /etc/fuse.conf.
                """)
        var allowOther = false

        func run() async throws {
            try await Connection.with(options, retryingConnections: true) { connection in
                let place = try await connection.client.addPlace()
                let storage = RemoteStorage(
                    client: connection.client, place: place,
                    chunkCache: TransferCache.open(place: connection.place.name), logger: .cli)
                let root = try await storage.rootContainer(forUser: place.bootstrap.userID)
                let configuration = FUSEMount.Configuration(
                    mountPoint: mountPoint, readOnly: readOnly, operationTimeout: .seconds(timeout),
                    lockHolder: "wopi mount (\(ProcessInfo.processInfo.hostName))", allowOtherUsers: allowOther)
                let mount = FUSEMount(
                    backend: storage, lockStore: storage.locks, root: root.id, configuration: configuration,
                    logger: .cli)
                try await mount.runUntilTerminated {
                    Console.error(
                        "mounted \(connection.place.name) at \(mountPoint); Ctrl-C or fusermount3 -u to unmount")
                }
            }
        }
    }

    /// The subcommands that need FUSE.
    let mountSubcommands: [any ParsableCommand.Type] = [MountCommand.self]
#else
    import ArgumentParser

    /// The subcommands that need FUSE: none off Linux.
    let mountSubcommands: [any ParsableCommand.Type] = []
#endif
