import Dispatch
import Foundation

/// `FUZZ_DESCRIBE=1` prints each input's script before it runs, and each request's answer (to read what a crash input
/// does).
let describesInputs = ProcessInfo.processInfo.environment["FUZZ_DESCRIBE"] != nil

extension FuzzTarget {
    /// The in-process host, every operation, co-authoring on: each input is an ``HTTPScript`` of up to eight requests
    /// (or clock steps) with hostile header values, bodies and frame streams, run against a fresh ``FuzzHost``. A
    /// crash, or a 5xx the host does not document (``HTTPScriptRun/isDocumented(_:proofKeys:)``), is a finding.
    static let httpHost = FuzzTarget(
        name: "http-host",
        run: { input in
            var reader = ChoiceReader(Array(input.data))
            let script = HTTPScript(from: &reader)
            if describesInputs { FileHandle.standardError.write(Data("\(script)\n".utf8)) }
            waitFor { await HTTPScriptRun.run(script) }
        },
        seeds: {
            HTTPHostSeeds.all.map { name, script in
                var writer = ChoiceWriter()
                script.write(to: &writer)
                var reader = ChoiceReader(writer.bytes)
                fuzzCheck(HTTPScript(from: &reader) == script, "the seed \(name) reads back as itself")
                return (name, writer.bytes)
            }
        })
}

/// Runs `work` on a task and blocks the calling thread until it ends. libFuzzer calls the target synchronously on its
/// own thread (the process's main thread, where `LLVMFuzzerRunDriver` runs), which is not a thread of Swift
/// concurrency's pool: blocking it cannot starve the pool that runs the task, so this cannot deadlock.
private func waitFor(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    done.wait()
}
