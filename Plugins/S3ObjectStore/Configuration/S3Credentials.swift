public import Foundation

/// The access key an ``S3ObjectStore`` signs its requests with: an access key ID, its secret and, for temporary
/// credentials, a session token.
///
/// Its `description`, `debugDescription` and mirror show the first four characters of the access key ID only, so
/// logging a configuration or `dump`ing it never prints a secret.
///
/// ```swift
/// let credentials = try S3Credentials.fromEnvironment()        // AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, ...
/// let fromFile = try S3Credentials.fromFile(URL(fileURLWithPath: "/etc/wopi/s3.env"))
/// ```
public struct S3Credentials: Sendable, Equatable {
    /// The access key ID (`AKIA...`).
    public var accessKeyID: String
    /// The secret access key.
    public var secretAccessKey: String
    /// The session token of temporary credentials (sent as `x-amz-security-token`), if any.
    public var sessionToken: String?

    /// Credentials from their parts.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The names of the environment variables read by ``fromEnvironment(_:)``.
    public enum Variable {
        /// `AWS_ACCESS_KEY_ID`.
        public static let accessKeyID = "AWS_ACCESS_KEY_ID"
        /// `AWS_SECRET_ACCESS_KEY`.
        public static let secretAccessKey = "AWS_SECRET_ACCESS_KEY"
        /// `AWS_SESSION_TOKEN` (optional).
        public static let sessionToken = "AWS_SESSION_TOKEN"
    }

    /// Credentials from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and, when set, `AWS_SESSION_TOKEN`.
    ///
    /// - Parameter environment: the variables to read; the process's environment by default.
    /// - Throws: ``S3Error/Code/invalidConfiguration`` naming the variable that is missing or empty.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(S3Error) -> S3Credentials {
        try from(environment, source: "the environment")
    }

    /// Credentials from a file: either `KEY=VALUE` lines with the environment variables' names (a shell-sourceable
    /// env file such as `scripts/ceph-cluster.sh`'s `s3.env`), or AWS's shared credentials file (INI sections with
    /// `aws_access_key_id`, `aws_secret_access_key` and `aws_session_token`), of which `profile` is read.
    ///
    /// - Throws: ``S3Error/Code/invalidConfiguration`` when the file cannot be read or lacks a key.
    public static func fromFile(_ url: URL, profile: String = "default") throws(S3Error) -> S3Credentials {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw S3Error(
                .invalidConfiguration,
                "Cannot read the S3 credentials file \(url.path): check that it exists and is readable.",
                underlying: error)
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        if lines.contains(where: { $0.hasPrefix("[") }) {
            return try fromSharedCredentials(lines, profile: profile, path: url.path)
        }
        var values: [String: String] = [:]
        for line in lines where !line.isEmpty && !line.hasPrefix("#") {
            var line = Substring(line)
            if line.hasPrefix("export ") { line = line.dropFirst(7) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            values[name] = unquote(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
        }
        return try from(values, source: url.path)
    }

    private static func fromSharedCredentials(_ lines: [String], profile: String, path: String) throws(S3Error)
        -> S3Credentials
    {
        var section: String?
        var values: [String: String] = [:]
        for line in lines where !line.isEmpty && !line.hasPrefix("#") && !line.hasPrefix(";") {
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                continue
            }
            guard section == profile, let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            values[name] = unquote(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
        }
        return try from(
            [
                Variable.accessKeyID: values["aws_access_key_id"],
                Variable.secretAccessKey: values["aws_secret_access_key"],
                Variable.sessionToken: values["aws_session_token"],
            ].compactMapValues { $0 }, source: "profile [\(profile)] of \(path)")
    }

    private static func from(_ values: [String: String], source: String) throws(S3Error) -> S3Credentials {
        guard let accessKeyID = values[Variable.accessKeyID], !accessKeyID.isEmpty else {
            throw S3Error(
                .invalidConfiguration,
                "No S3 access key in \(source): set \(Variable.accessKeyID) (and \(Variable.secretAccessKey)).")
        }
        guard let secret = values[Variable.secretAccessKey], !secret.isEmpty else {
            throw S3Error(
                .invalidConfiguration,
                "No S3 secret key in \(source): set \(Variable.secretAccessKey) for access key "
                    + "\(redacted(accessKeyID)).")
        }
        let token = values[Variable.sessionToken].flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyID: accessKeyID, secretAccessKey: secret, sessionToken: token)
    }

    private static func unquote(_ value: String) -> String {
        for quote in ["\"", "'"] where value.count >= 2 && value.hasPrefix(quote) && value.hasSuffix(quote) {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    /// The first four characters of an access key ID, then `…`.
    static func redacted(_ accessKeyID: String) -> String {
        accessKeyID.count <= 4 ? "…" : accessKeyID.prefix(4) + "…"
    }
}

extension S3Credentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The access key ID's first characters; the secret and the token are never shown.
    public var description: String {
        "S3Credentials(accessKeyID: \(Self.redacted(accessKeyID)), secretAccessKey: <redacted>"
            + (sessionToken == nil ? ")" : ", sessionToken: <redacted>)")
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .struct)
    }
}
