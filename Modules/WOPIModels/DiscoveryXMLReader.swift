import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads a discovery document with `XMLParser` into ``WOPIDiscovery`` parts. Unknown elements are ignored.
final class DiscoveryXMLReader: NSObject, XMLParserDelegate {
    private(set) var zones: [DiscoveryNetZone] = []
    private(set) var proofKey: DiscoveryProofKey?
    private(set) var failure: WOPIFormatError?
    /// The `<app>` and `<action>` elements skipped because they lack a required attribute.
    private(set) var warnings: [String] = []
    private var sawRoot = false
    private var openElements: [String] = []
    private var zone: DiscoveryNetZone?
    private var app: DiscoveryApp?

    static func read(_ data: Data) throws(WOPIFormatError) -> (
        zones: [DiscoveryNetZone], proofKey: DiscoveryProofKey?, warnings: [String]
    ) {
        let reader = DiscoveryXMLReader()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = reader
        let succeeded = parser.parse()
        if let failure = reader.failure { throw failure }
        guard succeeded else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown XML error"
            throw WOPIFormatError(
                .malformed, format: "discovery XML",
                "The document is not well-formed XML "
                    + "(line \(parser.lineNumber)): \(reason).")
        }
        guard reader.sawRoot, reader.openElements.isEmpty else {
            throw WOPIFormatError(
                .malformed, format: "discovery XML", "The document is empty or ends inside an element.")
        }
        return (reader.zones, reader.proofKey, reader.warnings)
    }

    private func fail(_ parser: XMLParser, _ code: WOPIFormatError.Code, _ message: String) {
        guard failure == nil else { return }
        failure = WOPIFormatError(code, format: "discovery XML", "Line \(parser.lineNumber): \(message)")
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        fail(parser, .malformed, "The document is not well-formed XML: \(parseError.localizedDescription).")
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        openElements.append(elementName)
        guard sawRoot else {
            sawRoot = true
            if elementName != "wopi-discovery" {
                fail(parser, .malformed, "The root element is <\(elementName)>; expected <wopi-discovery>.")
            }
            return
        }
        switch elementName {
        case "net-zone":
            zone = DiscoveryNetZone(name: attributes["name"] ?? "")
        case "app":
            guard let name = attributes["name"] else {
                warnings.append("Line \(parser.lineNumber): an <app> has no name; it and its actions are skipped.")
                return
            }
            app = DiscoveryApp(
                name: name, favIconURL: attributes["favIconUrl"],
                checkLicense: attributes["checkLicense"]?.lowercased() == "true", attributes: attributes)
        case "action":
            guard app != nil else { return }
            guard let name = attributes["name"], let urlsrc = attributes["urlsrc"] else {
                warnings.append(
                    "Line \(parser.lineNumber): an <action> lacks its name or urlsrc attribute; it is skipped.")
                return
            }
            let requires = (attributes["requires"] ?? "").split(separator: ",")
                .map { String($0).trimmingWhiteSpace() }.filter { !$0.isEmpty }
            app?.actions.append(
                DiscoveryAction(
                    name: name, fileExtension: attributes["ext"], requires: requires,
                    urlTemplate: ActionURLTemplate(urlsrc), isDefault: attributes["default"]?.lowercased() == "true",
                    attributes: attributes))
        case "proof-key":
            proofKey = DiscoveryProofKey(
                value: attributes["value"], modulus: attributes["modulus"], exponent: attributes["exponent"],
                oldValue: attributes["oldvalue"], oldModulus: attributes["oldmodulus"],
                oldExponent: attributes["oldexponent"])
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        // Some XMLParser implementations recover from mismatched tags; a discovery document must be well-formed.
        guard openElements.popLast() == elementName else {
            return fail(parser, .malformed, "</\(elementName)> does not close the element opened before it.")
        }
        switch elementName {
        case "app":
            if let app { zone?.apps.append(app) }
            app = nil
        case "net-zone":
            if let zone { zones.append(zone) }
            zone = nil
        default:
            break
        }
    }
}
