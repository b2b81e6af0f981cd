public import Foundation
public import Logging
import ServiceLifecycle

#if OTLP
    import OTel
#endif

/// Trace export over OTLP/HTTP with swift-otel, configured by the standard `OTEL_*` environment variables and off
/// unless they ask for it.
///
/// Export is on when ``isRequested(by:)``: `OTEL_TRACES_EXPORTER` names an exporter other than `none`, or an OTLP
/// endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); `OTEL_SDK_DISABLED=true`
/// turns it off whatever else is set. This differs from the OpenTelemetry specification's default (`otlp`) on
/// purpose: a host that nobody configured sends nothing anywhere. The other variables (`OTEL_SERVICE_NAME`,
/// `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`, ...) are
/// swift-otel's, as the specification defines them. Only traces are exported: metrics stay with the process's
/// swift-metrics backend and logs with its swift-log backend.
///
/// ```swift
/// try await OTLPTracing.withExport(serviceName: "wopi-host", logger: logger) {
///     try await deployment.run()
/// }
/// ```
public enum OTLPTracing {
    /// Whether `environment` asks for trace export (see ``OTLPTracing``).
    public static func isRequested(by environment: [String: String]) -> Bool {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if value("OTEL_SDK_DISABLED")?.lowercased() == "true" { return false }
        if let exporter = value("OTEL_TRACES_EXPORTER") { return exporter.lowercased() != "none" }
        return value("OTEL_EXPORTER_OTLP_ENDPOINT") != nil || value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != nil
    }

    /// The values of `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_EXPORTER_OTLP_TRACES_HEADERS` (`key=value,…`, as sent and
    /// percent-decoded): credentials for the collector, for ``SanitizingLogHandler`` to redact.
    public static func secrets(in environment: [String: String]) -> [String] {
        ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"].flatMap { name -> [String] in
            (environment[name] ?? "").split(separator: ",").flatMap { pair -> [String] in
                guard let equals = pair.firstIndex(of: "=") else { return [] }
                let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                return [value, value.removingPercentEncoding ?? value].filter { !$0.isEmpty }
            }
        }
    }

    /// Runs `body` with the process's tracer exporting over OTLP when `environment` asks for it (see
    /// ``OTLPTracing``), and as it is otherwise (no export, the no-op tracer unless someone bootstrapped one).
    ///
    /// With export on, this bootstraps `InstrumentationSystem` (once per process) with swift-otel's tracer and W3C
    /// `traceparent` propagation, runs its exporter as a swift-service-lifecycle service beside `body`, and when
    /// `body` returns or throws, shuts the exporter down gracefully, which sends the spans still queued.
    ///
    /// - Parameters:
    ///   - serviceName: the `service.name` of the spans unless `OTEL_SERVICE_NAME` says otherwise.
    ///   - environment: where the `OTEL_*` variables are read; the process's environment by default.
    ///   - logger: where swift-otel reports export failures.
    /// - Throws: ``OTLPTracingError`` when the variables ask for something swift-otel cannot do (an unknown
    ///   exporter or protocol, a certificate that cannot be read); whatever `body` throws.
    public static func withExport<Result>(
        serviceName: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async throws -> Result {
        guard isRequested(by: environment), let exporter = try exporter(serviceName, environment, logger) else {
            return try await body()
        }
        let group = ServiceGroup(
            configuration: .init(services: [exporter], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let result: Swift.Result<Result, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }

    /// Bootstraps swift-otel's tracer for `environment` and returns its exporting service, or `nil` when this build
    /// has no swift-otel (the `OTLP` trait is off).
    private static func exporter(_ serviceName: String, _ environment: [String: String], _ logger: Logger) throws
        -> (any Service)?
    {
        #if OTLP
            let protocolName =
                environment["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] ?? environment["OTEL_EXPORTER_OTLP_PROTOCOL"]
            if protocolName?.trimmingCharacters(in: .whitespaces).lowercased() == "grpc" {
                // swift-otel stops the process on a protocol its build lacks; refuse it with a message instead.
                throw OTLPTracingError(
                    reason: "OTLP over gRPC is not in this build; use http/protobuf (the default) or http/json")
            }
            var configuration = OTel.Configuration.default
            configuration.serviceName = serviceName
            configuration.logs.enabled = false
            configuration.metrics.enabled = false
            configuration.diagnosticLogger = .custom(logger)
            do {
                return try OTel.bootstrap(configuration: configuration, environment: environment)
            } catch {
                throw OTLPTracingError(reason: "\(error)")
            }
        #else
            logger.warning("OTEL_* asks for trace export, but this build has no swift-otel (the OTLP trait is off)")
            return nil
        #endif
    }
}

/// The `OTEL_*` variables ask for trace export swift-otel cannot set up; the reason says which variable to fix.
public struct OTLPTracingError: Error, CustomStringConvertible {
    /// What swift-otel refused.
    public let reason: String

    /// The message.
    public var description: String {
        "Trace export could not be set up from the OTEL_* variables: \(reason). Fix or unset them."
    }
}
