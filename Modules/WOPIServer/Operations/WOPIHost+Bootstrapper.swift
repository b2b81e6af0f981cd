extension WOPIHost {
    func handleBootstrapper(_ request: WOPIRequest) async throws -> WOPIResponse {
        throw WOPIHTTPError.notFound("This host has no bootstrapper configured.")
    }
}
