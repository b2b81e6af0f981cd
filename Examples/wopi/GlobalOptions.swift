import ArgumentParser

/// Options every command that talks to a place shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The place to use (a name given to `wopi login --name`); default: the last signed in.")
    var place: String?

    @Flag(name: .long, help: "Print the result as one line of JSON (for scripts).")
    var json = false
}
