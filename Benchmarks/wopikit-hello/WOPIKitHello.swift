import ArgumentParser
import Foundation
import Hummingbird
import NIOCore

/// `wopikit-hello`: the ceiling of the benchmark suite, a Hummingbird hello-world that answers every `GET` with
/// a fixed body of CheckFileInfo's size, built with the same compiler, framework and settings as `wopi-host`.
///
/// ```sh
/// wopikit-hello --port 0 --body-size 1100   # prints "listening on http://127.0.0.1:PORT"
/// ```
@main
struct WOPIKitHello: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wopikit-hello",
        abstract: "Serve a fixed JSON body on 127.0.0.1: the hello-world ceiling of `make bench`.")

    @Option(name: .long, help: "The port to listen on (0: any free port).")
    var port: Int = 0
    @Option(name: .long, help: "The size of the body in bytes, that of the CheckFileInfo it stands for.")
    var bodySize: Int = 1024

    func run() async throws {
        var buffer = ByteBuffer(string: "{\"BaseFileName\":\"")
        buffer.writeRepeatingByte(UInt8(ascii: "x"), count: max(0, bodySize - buffer.readableBytes - 2))
        buffer.writeString("\"}")
        let body = buffer
        let router = Router()
        router.get("**") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: body))
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                let line = "listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            })
        try await app.runService()
    }
}
