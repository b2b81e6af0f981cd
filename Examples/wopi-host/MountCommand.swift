import WOPIDeployment
import WOPIServer
import WOPIStorage

// FUSE is Linux-only: on other platforms the command is left out (see Docs/fuse-mount.md).
#if canImport(FUSEMount)
    import ArgumentParser
    import FUSEMount
    import Logging

    /// `wopi-host mount --data DIR [--user NAME] MOUNTPOINT`: a user's files in the local store as a file system.
    struct MountCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mount", abstract: "Mount a user's files of the data directory at a directory (FUSE).",
            discussion: """
                Serves in the foreground until Ctrl-C, SIGTERM or `fusermount3 -u MOUNTPOINT`. With the default \
                sqlite storage a running `serve` on the same directory shares the mount's locks, so Office sees a file \
                open for writing in the mount as locked; with --storage fs, locks live in each process and are not \
                shared. Needs /dev/fuse and fusermount3 (Debian: fuse3).
                """)

        @OptionGroup var data: DataOptions
        @Option(name: .long, help: "Whose files to mount.") var user = DemoSeed.user
        @Argument(help: "An empty directory to mount the files at.") var mountPoint: String
        @Flag(name: .customLong("ro"), help: "Mount read-only.") var readOnly = false

        func run() async throws {
            let directory = try await data.open()
            let stores = try await directory.stores()
            guard let owner = try await stores.users.user(user) else {
                throw ValidationFailure("No user \(user); add one with `wopi-host user add \(user) --password-stdin`.")
            }
            // The user's view through the host's door: the policy and serve's change guards decide here too.
            let files = try await ExampleDecisions.host(stores, directory).storage(for: owner)
            let root = try await files.rootContainer(forUser: user)
            let mount = FUSEMount(
                backend: files, lockStore: stores.locks, root: root.id,
                configuration: FUSEMount.Configuration(
                    mountPoint: mountPoint, readOnly: readOnly, lockHolder: "wopi-host mount"),
                logger: Logger(label: "wopi-host"))
            try await mount.runUntilTerminated {
                Console.line("mounted \(user)'s files at \(mountPoint); Ctrl-C or fusermount3 -u to unmount")
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
