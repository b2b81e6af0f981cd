public import Foundation

/// What a WOPI client says it can do at `/hosting/capabilities`: Collabora Online publishes it, and ONLYOFFICE
/// emulates it, each naming the URL in discovery as the `getinfo` action of the app `Capabilities`.
///
/// Every field is optional, as clients add and drop them between versions; unknown fields are ignored.
///
/// ```json
/// {"convert-to": {"available": true, "endpoint": "/cool/convert-to"}, "hasMobileSupport": true,
///  "hasTemplateSaveAs": false, "hasTemplateSource": true, "productName": "Collabora Online",
///  "productVersion": "24.04.1.2"}
/// ```
public struct WOPIClientCapabilities: Sendable, Hashable, Decodable {
    /// The conversion service (`convert-to`).
    public struct Conversion: Sendable, Hashable, Decodable {
        /// Whether documents can be converted.
        public var available: Bool?
        /// The path of the conversion endpoint on the client.
        public var endpoint: String?

        /// Creates a conversion description.
        public init(available: Bool? = nil, endpoint: String? = nil) {
            self.available = available
            self.endpoint = endpoint
        }
    }

    /// The product, such as `Collabora Online`.
    public var productName: String?
    /// Its version.
    public var productVersion: String?
    /// Whether the client creates new documents from CheckFileInfo's `TemplateSource`.
    public var hasTemplateSource: Bool?
    /// Whether the client saves templates as new documents (`TemplateSaveAs`).
    public var hasTemplateSaveAs: Bool?
    /// Whether the client has a mobile interface.
    public var hasMobileSupport: Bool?
    /// Whether the client is served below a proxy prefix.
    public var hasProxyPrefix: Bool?
    /// The conversion service.
    public var convertTo: Conversion?

    /// The capabilities of a client that says nothing.
    public init() {}

    /// Decodes the JSON of `/hosting/capabilities`.
    ///
    /// - Throws: ``WOPIFormatError`` when `data` is not a JSON object.
    public init(json data: Data) throws(WOPIFormatError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw WOPIFormatError(
                .malformed, format: "/hosting/capabilities", "The capabilities are not a JSON object: \(error)")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case productName, productVersion, hasTemplateSource, hasTemplateSaveAs, hasMobileSupport, hasProxyPrefix
        case convertTo = "convert-to"
    }

    /// Decodes the fields it knows; a field of another type than expected is treated as absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productName = try? container.decodeIfPresent(String.self, forKey: .productName)
        productVersion = try? container.decodeIfPresent(String.self, forKey: .productVersion)
        hasTemplateSource = try? container.decodeIfPresent(Bool.self, forKey: .hasTemplateSource)
        hasTemplateSaveAs = try? container.decodeIfPresent(Bool.self, forKey: .hasTemplateSaveAs)
        hasMobileSupport = try? container.decodeIfPresent(Bool.self, forKey: .hasMobileSupport)
        hasProxyPrefix = try? container.decodeIfPresent(Bool.self, forKey: .hasProxyPrefix)
        convertTo = try? container.decodeIfPresent(Conversion.self, forKey: .convertTo)
    }
}

extension WOPIDiscovery {
    /// The URL of the client's capabilities: the `getinfo` action of the app `Capabilities`, in any zone.
    public var capabilitiesURL: String? {
        netZones.lazy.flatMap(\.apps).filter { $0.name.lowercased() == "capabilities" }.flatMap(\.actions)
            .first { $0.name.lowercased() == "getinfo" }?.urlTemplate.template
    }
}
