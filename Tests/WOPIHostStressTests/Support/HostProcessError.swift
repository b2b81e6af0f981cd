/// A child `wopi-host` that did not do what a test needed; the message holds its output.
struct HostProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
