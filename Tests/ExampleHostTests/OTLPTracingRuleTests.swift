import Logging
import Testing
import WOPITelemetry

/// When the `OTEL_*` variables turn trace export on (Docs/operations.md, "Traces"): off unless they ask for it.
@Suite struct OTLPTracingRuleTests {
    @Test(arguments: [
        ([:], false),
        (["OTEL_SERVICE_NAME": "wopi"], false),
        (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"], true),
        (["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"], true),
        (["OTEL_EXPORTER_OTLP_ENDPOINT": " "], false),
        (["OTEL_TRACES_EXPORTER": "otlp"], true),
        (["OTEL_TRACES_EXPORTER": "console"], true),
        (["OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"], false),
        (["OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"], false),
        (["OTEL_SDK_DISABLED": "false", "OTEL_TRACES_EXPORTER": "otlp"], true),
    ])
    func exportIsOnOnlyWhenAsked(environment: [String: String], requested: Bool) {
        #expect(OTLPTracing.isRequested(by: environment) == requested)
    }

    @Test func withoutTheVariablesTheBodyRunsAsItIs() async throws {
        let value = try await OTLPTracing.withExport(serviceName: "test", environment: [:], logger: Logger(label: "t"))
        {
            42
        }
        #expect(value == 42)
    }

    @Test func gRPCIsRefusedWithAMessageRatherThanAStop() async throws {
        let environment = [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        ]
        let error = await #expect(throws: OTLPTracingError.self) {
            try await OTLPTracing.withExport(serviceName: "test", environment: environment, logger: Logger(label: "t"))
            {
                Issue.record("the body ran although export could not be set up")
            }
        }
        #expect(error?.description.contains("http/protobuf") == true)
    }
}
