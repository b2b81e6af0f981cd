package import WOPIStorage

/// The small check helpers the conformance cases use; each throws a ``ConformanceFailure`` located at the caller.
package enum Check {
    /// Fails unless `condition` holds.
    package static func expect(
        _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        if !condition { throw ConformanceFailure(message(), file: file, line: line) }
    }

    /// Fails unless `actual == expected`, showing both.
    package static func expectEqual<T: Equatable>(
        _ actual: T, _ expected: T, _ message: @autoclosure () -> String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        if actual != expected {
            throw ConformanceFailure("\(message()): got \(actual), expected \(expected)", file: file, line: line)
        }
    }

    /// Returns the value, or fails when it is `nil`.
    package static func require<T>(
        _ value: T?, _ message: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line
    ) throws -> T {
        guard let value else { throw ConformanceFailure(message(), file: file, line: line) }
        return value
    }

    /// Runs `body` and fails unless it throws, whatever it throws (a body that fails midway must fail the write).
    package static func expectThrows<T>(
        _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> T
    ) async throws {
        let result: T
        do {
            result = try await body()
        } catch {
            return
        }
        throw ConformanceFailure("\(what()) must throw, but returned \(result)", file: file, line: line)
    }

    /// Runs `body` and fails unless it throws a ``StorageError`` with `code`; returns that error.
    @discardableResult
    package static func expectThrows<T>(
        code: StorageError.Code, _ what: @autoclosure () -> String, file: StaticString = #filePath,
        line: UInt = #line, _ body: () async throws -> T
    ) async throws -> StorageError {
        try await expectThrows(anyOf: [code], what(), file: file, line: line, body)
    }

    /// Runs `body` and fails unless it throws a ``StorageError`` with one of `codes`; returns that error.
    @discardableResult
    package static func expectThrows<T>(
        anyOf codes: [StorageError.Code], _ what: @autoclosure () -> String, file: StaticString = #filePath,
        line: UInt = #line, _ body: () async throws -> T
    ) async throws -> StorageError {
        let expected = codes.map { "StorageError.\($0)" }.joined(separator: " or ")
        let result: T
        do {
            result = try await body()
        } catch let error as StorageError {
            if codes.contains(error.code) { return error }
            throw ConformanceFailure(
                "\(what()) should fail with \(expected), but failed with StorageError.\(error.code)",
                underlying: error, file: file, line: line)
        } catch {
            throw ConformanceFailure(
                "\(what()) should fail with \(expected), but threw a non-storage error",
                underlying: error, file: file, line: line)
        }
        throw ConformanceFailure(
            "\(what()) should fail with \(expected), but succeeded with \(result)", file: file, line: line)
    }

    /// Runs a step the case relies on, turning an unexpected error into a failure that names the step.
    package static func step<T>(
        _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw ConformanceFailure("\(what()) failed unexpectedly", underlying: error, file: file, line: line)
        }
    }
}
