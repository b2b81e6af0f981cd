/// One named behaviour that every implementation of an open protocol must show, runnable from any test framework.
///
/// The kits for the server's and the OAuth client's stores (`UserDirectoryConformance`, `OAuthStoreConformance`,
/// `TokenStoreConformance`) hand out their cases as values of this type; failures are thrown
/// ``ConformanceFailure``s.
///
/// ```swift
/// @Test(arguments: UserDirectoryConformance.cases)
/// func conformance(_ c: ConformanceCase<any UserDirectory>) async throws {
///     let folder = try makeEmptyFolder()
///     try await c.run { try MyUserDirectory(folder: folder) }
/// }
/// ```
public struct ConformanceCase<Subject: Sendable>: Sendable, CustomStringConvertible {
    /// Opens the implementation under test.
    public typealias Opener = @Sendable () async throws -> Subject

    /// A short sentence naming the behaviour checked.
    public let name: String
    private let body: @Sendable (_ open: @escaping Opener) async throws -> Void

    /// Creates a case; `body` opens the subject (once or more) and throws a ``ConformanceFailure`` when it
    /// misbehaves.
    package init(_ name: String, _ body: @escaping @Sendable (_ open: @escaping Opener) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the case.
    ///
    /// - Parameter open: opens the implementation on fresh, empty state kept for this case alone. Cases that check
    ///   what several processes sharing one store see call it more than once: every subject it returns must then
    ///   be a new instance on the same underlying store (the same database or file), or, for a store that lives in
    ///   memory, the same instance.
    /// - Throws: ``ConformanceFailure`` when the implementation does not behave as required, or the error of `open`.
    public func run(_ open: @escaping Opener) async throws {
        do {
            try await body(open)
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure("case \"\(name)\" failed with an unexpected error", underlying: error)
        }
    }

    public var description: String { name }
}
