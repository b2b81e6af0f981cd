import ArgumentParser
import Foundation
import WOPIDeployment

#if TLS
    import HummingbirdTLS
#endif

/// `serve`'s listener: where it listens, under which URL, with which TLS, timeouts and metrics.
struct ListenOptions: ParsableArguments {
    @Option(name: .long, help: "The address to listen on.") var host = "127.0.0.1"
    @Option(name: .long, help: "The port; 0 picks a free one.") var port = 8080
    @Option(name: .long, help: "The external base URL clients use, e.g. https://wopi.example.com.") var publicURL:
        String?
    @Option(name: .long, help: "Serve HTTPS with this PEM certificate chain (needs --tls-key).") var tlsCert: String?
    @Option(name: .long, help: "The PEM private key of --tls-cert.") var tlsKey: String?
    @Option(name: .long, help: "Seconds a connection may idle (no byte read or written).")
    var idleTimeout = 30
    @Option(name: .long, help: "Seconds a client may take to send a request's head.")
    var headerTimeout = 30
    @Option(
        name: .long,
        help: "Seconds a request body may keep the host waiting before it must bring 1 KiB for each second more.")
    var bodyTimeout = 30
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the metrics in Prometheus's format on a listener of their own, HOST:PORT (port 0 picks one).",
            discussion: "Off by default. No token is asked: listen on loopback or an interface only Prometheus reaches."
        ))
    var metricsListen: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the metrics at this path of the main listener, e.g. /metrics.",
            discussion: "Off by default. Anyone who reaches the host reads them: keep the path private at your proxy."))
    var metricsPath: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, not \(port).") }
        if let publicURL, !(publicURL.hasPrefix("https://") || publicURL.hasPrefix("http://")) {
            throw ValidationError("--public-url must be an http(s) URL, such as https://wopi.example.com.")
        }
        _ = try metricsEndpoint()
        for (name, seconds) in [("idle", idleTimeout), ("header", headerTimeout), ("body", bodyTimeout)]
        where seconds < 1 {
            throw ValidationError("--\(name)-timeout must be at least 1 second.")
        }
    }

    /// Sets the listener's part of `configuration`.
    func apply(to configuration: inout WOPIDeployment.Configuration) throws {
        configuration.bindHost = host
        configuration.port = port
        configuration.publicURL = publicURL
        #if TLS
            configuration.tls = try tlsConfiguration()
        #else
            if tlsCert != nil || tlsKey != nil { throw ValidationFailure.leftOut("--tls-cert", trait: "TLS") }
        #endif
        configuration.idleTimeout = .seconds(idleTimeout)
        configuration.requestTimeouts = RequestTimeouts(header: .seconds(headerTimeout), body: .seconds(bodyTimeout))
        configuration.metrics = try metricsEndpoint()
    }

    /// The metrics endpoint of `--metrics-listen` or `--metrics-path`, or `nil`.
    func metricsEndpoint() throws -> MetricsEndpoint? {
        switch (metricsListen, metricsPath) {
        case (nil, nil):
            return nil
        case (let address?, nil):
            guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
                (0...65535).contains(port)
            else { throw ValidationError("--metrics-listen takes HOST:PORT, such as 127.0.0.1:9464.") }
            let host = address[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return .listener(host: host, port: port)
        case (nil, let path?):
            guard path.hasPrefix("/"), path.count > 1 else {
                throw ValidationError("--metrics-path must start with /, such as /metrics.")
            }
            return .path(path)
        default:
            throw ValidationError("Give --metrics-listen or --metrics-path, not both.")
        }
    }

    #if TLS
        /// The TLS settings from `--tls-cert` and `--tls-key`, or `nil` for plain HTTP.
        private func tlsConfiguration() throws -> TLSConfiguration? {
            switch (tlsCert, tlsKey) {
            case (nil, nil):
                return nil
            case (let cert?, let key?):
                return TLSConfiguration.makeServerConfiguration(
                    certificateChain: try NIOSSLCertificate.fromPEMFile(cert).map { .certificate($0) },
                    privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            default:
                throw ValidationError("--tls-cert and --tls-key go together.")
            }
        }
    #endif
}
