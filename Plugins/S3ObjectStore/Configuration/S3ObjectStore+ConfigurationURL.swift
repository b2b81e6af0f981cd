public import Foundation

extension S3ObjectStore.Configuration {
    /// The parameters ``init(url:credentials:environment:)`` reads.
    public enum URLParameter {
        /// `endpoint`: the server's base URL (`http://127.0.0.1:7480`); AWS's `https://s3.REGION.amazonaws.com` when
        /// left out.
        public static let endpoint = "endpoint"
        /// `region`: the signing region; default `us-east-1`.
        public static let region = "region"
        /// `addressing`: `path` or `virtual`; default `path` with an `endpoint`, `virtual` on AWS.
        public static let addressing = "addressing"
        /// `credentials-file`: a file to read the credentials from (``S3Credentials/fromFile(_:profile:)``)
        /// instead of the environment.
        public static let credentialsFile = "credentials-file"
        /// `profile`: the profile of a shared credentials file; default `default`.
        public static let profile = "profile"

        static let all = [endpoint, region, addressing, credentialsFile, profile]
    }

    /// A configuration from its URL form, `s3://BUCKET?endpoint=http://127.0.0.1:7480&region=default&addressing=path`,
    /// as a deployment's settings or command line give it. The secret never goes in the URL: the credentials are
    /// `credentials` when given, else read from the file of `credentials-file`, else from the environment
    /// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`).
    ///
    /// - Throws: ``S3Error/Code/invalidConfiguration`` naming what is wrong: another scheme than `s3`, no bucket, a
    ///   path after the bucket, an unknown or repeated parameter, an endpoint that is not an `http`/`https` base URL,
    ///   an addressing other than `path` or `virtual`, missing credentials.
    public init(
        url: String, credentials: S3Credentials? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(S3Error) {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "s3" else {
            throw S3Error(
                .invalidConfiguration,
                "\"\(url)\" is not an S3 URL: write s3://BUCKET?endpoint=http://HOST:PORT&region=REGION&addressing=path."
            )
        }
        guard let bucket = components.host, !bucket.isEmpty else {
            throw S3Error(.invalidConfiguration, "The S3 URL \"\(url)\" names no bucket: write s3://BUCKET?….")
        }
        guard components.path.isEmpty || components.path == "/", components.user == nil, components.password == nil,
            components.port == nil
        else {
            throw S3Error(
                .invalidConfiguration,
                "The S3 URL \"\(url)\" has more than a bucket before its query: write s3://BUCKET?endpoint=…; the "
                    + "endpoint's host and port go in the endpoint parameter, the credentials in the environment.")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard URLParameter.all.contains(item.name) else {
                throw S3Error(
                    .invalidConfiguration,
                    "The S3 URL has an unknown parameter \"\(item.name)\": the known ones are "
                        + URLParameter.all.joined(separator: ", ") + ".")
            }
            guard parameters[item.name] == nil else {
                throw S3Error(.invalidConfiguration, "The S3 URL gives \"\(item.name)\" twice: give it once.")
            }
            guard let value = item.value, !value.isEmpty else {
                throw S3Error(.invalidConfiguration, "The S3 URL's \"\(item.name)\" parameter is empty: give a value.")
            }
            parameters[item.name] = value
        }
        let region = parameters[URLParameter.region] ?? "us-east-1"
        let endpoint: URL
        if let given = parameters[URLParameter.endpoint] {
            guard let parsed = URL(string: given) else {
                throw S3Error(
                    .invalidConfiguration, "The S3 endpoint \"\(given)\" is not a URL (http://127.0.0.1:7480).")
            }
            endpoint = parsed
        } else {
            guard let aws = URL(string: "https://s3.\(region).amazonaws.com") else {
                throw S3Error(
                    .invalidConfiguration,
                    "The S3 region \"\(region)\" is not a region name: use letters, digits and dashes (us-east-1).")
            }
            endpoint = aws
        }
        let addressing: S3Addressing
        if let given = parameters[URLParameter.addressing] {
            guard let parsed = S3Addressing(rawValue: given) else {
                throw S3Error(
                    .invalidConfiguration, "The S3 addressing \"\(given)\" is neither path nor virtual: choose one.")
            }
            addressing = parsed
        } else {
            addressing = parameters[URLParameter.endpoint] == nil ? .virtualHost : .path
        }
        let resolved: S3Credentials
        if let credentials {
            resolved = credentials
        } else if let file = parameters[URLParameter.credentialsFile] {
            resolved = try S3Credentials.fromFile(
                URL(fileURLWithPath: file), profile: parameters[URLParameter.profile] ?? "default")
        } else {
            resolved = try S3Credentials.fromEnvironment(environment)
        }
        try self.init(
            endpoint: endpoint, region: region, bucket: bucket, addressing: addressing, credentials: resolved)
    }
}
