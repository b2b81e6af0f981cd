import Foundation

/// Writes lines to standard output unbuffered, so a process reading our output (a test, a supervisor) sees
/// `listening on …` the moment the server is ready, even through a pipe.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
