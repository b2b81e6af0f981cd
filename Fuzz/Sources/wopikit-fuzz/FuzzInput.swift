import Foundation

/// One libFuzzer input, with the views the targets need.
struct FuzzInput {
    var data: Data

    init(_ data: Data) { self.data = data }

    /// The input as text; bytes that are not UTF-8 become U+FFFD, as a lenient HTTP stack would give them.
    var text: String { String(decoding: data, as: UTF8.self) }

    /// The first byte picks a variant of a target (which entry point, which field); the rest is the input proper.
    var selector: (choice: UInt8, rest: FuzzInput) {
        guard let first = data.first else { return (0, self) }
        return (first, FuzzInput(data.dropFirst()))
    }

    /// The text split at newlines into at least `count` fields (missing ones are empty), for multi-field inputs.
    func fields(_ count: Int) -> [String] {
        var parts = text.split(separator: "\n", maxSplits: count - 1, omittingEmptySubsequences: false).map(String.init)
        while parts.count < count { parts.append("") }
        return parts
    }
}

/// A property every input must keep; a failure stops the run as a crash, so libFuzzer keeps the input.
func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() { fatalError(message(), file: file, line: line) }
}
