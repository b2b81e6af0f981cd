import Foundation
import WOPIModels

/// Where `wopi` writes: results to standard output, messages and progress to standard error.
enum Console {
    /// Writes a line to standard output.
    static func line(_ text: String) {
        print(text)
    }

    /// Writes a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes text to standard error without a newline.
    static func status(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard output is a terminal (progress bars are shown only then).
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Prints a value as one line of JSON.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
