import ArgumentParser
import WOPIClient
import WOPIModels

/// `wopi open-url PATH`: prints the `ms-word:ofe|u|…` URL that opens the file in Office for iOS or Android.
struct OpenURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-url", abstract: "Print the Office URL (ms-word:…, ms-excel:…) that opens a file.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The file.") var path: String
    @Flag(name: .long, help: "Open for editing (ofe) rather than viewing (ofv).") var edit = false
    @Option(name: .long, help: "word, excel or powerpoint; default: from the extension.") var app: String?

    func validate() throws {
        if let app, OfficeApp(rawValue: app.lowercased()) == nil {
            throw ValidationError("--app must be word, excel or powerpoint.")
        }
    }

    func run() async throws {
        try await Connection.with(options) { connection in
            let file = try await connection.file(RemotePath(path))
            guard
                let officeApp = app.flatMap({ OfficeApp(rawValue: $0.lowercased()) }) ?? OfficeApp(fileName: file.name)
            else {
                throw CLIFailure(.usage, "Office does not open \(file.name) by its extension; pass --app.")
            }
            let url = OfficeOpenURL(
                app: officeApp, mode: edit ? .edit : .view, wopiSrc: file.resource.wopiSrc,
                serviceID: connection.place.serviceID, userID: connection.place.userID, fileName: file.name)
            if options.json {
                try Console.json(["url": url.string, "app": officeApp.rawValue])
            } else {
                Console.line(url.string)
            }
        }
    }
}
