import WOPIClient

/// What a PATH below a place's root names.
enum RemoteItem: Sendable {
    case file(WOPIFilePointer, parent: WOPIContainerPointer)
    case container(WOPIContainerPointer, parent: WOPIContainerPointer?)

    var name: String {
        switch self {
        case .file(let file, _): file.name
        case .container(let container, _): container.name
        }
    }
}

/// A slash-separated PATH below a place's root (`Documents/Plan.docx`; `/` or empty is the root).
struct RemotePath: Sendable, CustomStringConvertible {
    let segments: [String]

    init(_ text: String) {
        segments = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
    }

    var isRoot: Bool { segments.isEmpty }
    var name: String? { segments.last }
    var parent: RemotePath { RemotePath(segments.dropLast().joined(separator: "/")) }
    var description: String { "/" + segments.joined(separator: "/") }
}
