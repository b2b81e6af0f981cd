import ArgumentParser

@main
struct WOPIKitBench: AsyncParsableCommand {
    func run() async throws {}
}
