import WOPIStorage

/// The conformance kit for ``StorageBackend``: every behaviour a backend must show, as runnable cases.
///
/// A backend is correct when it passes every case. Run them from the backend's own test target, with a fresh
/// backend per case (see ``StorageConformanceCase``). This library does not depend on any test framework.
///
/// ## Topics
/// - ``StorageConformanceCase``
/// - ``LockStoreConformance``
/// - ``ConformanceFailure``
public enum StorageConformance {
    /// Every storage conformance case.
    public static var cases: [StorageConformanceCase] {
        treeCases + contentCases + moveCases + robustnessCases
    }

    /// The root container of the user the cases work as.
    static func root(_ backend: any StorageBackend) async throws -> ContainerMetadata {
        try await Check.step("rootContainer(forUser: \"alice\")") {
            try await backend.rootContainer(forUser: "alice")
        }
    }

    /// Creates a small text file, failing the case with a clear message when that does not work.
    static func makeFile(
        _ backend: any StorageBackend, _ name: String, in parent: ItemID, text: String = "content"
    ) async throws -> FileMetadata {
        try await Check.step("createFile(named: \"\(name)\")") {
            try await backend.createFile(named: name, in: parent, content: Content.text(text), overwrite: false)
        }
    }

    /// Creates a container, failing the case with a clear message when that does not work.
    static func makeContainer(
        _ backend: any StorageBackend, _ name: String, in parent: ItemID
    ) async throws -> ContainerMetadata {
        try await Check.step("createContainer(named: \"\(name)\")") {
            try await backend.createContainer(named: name, in: parent)
        }
    }

    /// The names of a container's children, sorted.
    static func childNames(_ backend: any StorageBackend, _ container: ItemID) async throws -> [String] {
        try await backend.children(of: container).map(\.name).sorted()
    }
}
