/// A benchmark that could not run; the message says why and what to do.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
