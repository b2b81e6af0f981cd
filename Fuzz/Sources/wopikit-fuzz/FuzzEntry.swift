import CLibFuzzer
import Foundation

/// The target this process fuzzes, named by `FUZZ_TARGET`; read once.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: " ")
        FileHandle.standardError.write(Data("wopikit-fuzz: set FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// Runs one input through the selected target. A crash or a failed ``fuzzCheck(_:_:file:line:)`` is a finding.
/// Exported under libFuzzer's name too: its runtime refers to that symbol.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    selectedTarget.run(FuzzInput(data))
    return 0
}

/// `wopikit-fuzz [libFuzzer options] [corpus folders]`: hands the command line to libFuzzer's driver. With
/// `FUZZ_WRITE_SEEDS=FOLDER`, writes the seeds the target makes itself into FOLDER instead.
@main enum WOPIKitFuzz {
    static func main() {
        _ = selectedTarget
        if let folder = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] {
            for (name, bytes) in selectedTarget.seeds() {
                _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
            }
            exit(0)
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzOneInput($0, $1) })
    }
}
