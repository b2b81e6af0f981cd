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
        let data = try utf8Document(data)
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

    /// The document as XMLParser gets it: UTF-8 only, with its XML declaration blanked out.
    ///
    /// libxml2 behind XMLParser switches encodings on the declaration or the first bytes, and crashes on some (a
    /// declared `utf-7` was found by fuzzing). Discovery is UTF-8 in every WOPI client, so a document must start
    /// (after an optional UTF-8 byte order mark) with `<` or white space, and a declaration may name only UTF-8 or
    /// ASCII; the declaration is then replaced by spaces, which keeps line numbers and leaves libxml2 nothing to
    /// switch on.
    static func utf8Document(_ data: Data) throws(WOPIFormatError) -> Data {
        func refuse(_ message: String) -> WOPIFormatError {
            WOPIFormatError(.malformed, format: "discovery XML", message + " Discovery XML must be UTF-8.")
        }
        var bytes = [UInt8](data)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let first = bytes.dropFirst(start).first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return data
        }
        guard first == UInt8(ascii: "<") else { throw refuse("The document does not start with markup.") }
        let head = bytes[start...].drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard head.starts(with: Array("<?xml".utf8)) else { return try refusingRiskyMarkup(bytes) }
        let limit = min(bytes.count, head.startIndex + 4096)
        guard
            let close = (head.startIndex..<limit).first(where: {
                bytes[$0] == UInt8(ascii: "?") && $0 + 1 < limit
                    && bytes[$0 + 1] == UInt8(ascii: ">")
            })
        else { throw refuse("The XML declaration is not closed.") }
        let declaration = String(decoding: bytes[head.startIndex..<close], as: UTF8.self)
        if let key = declaration.range(of: "encoding") {
            let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
            let quote = rest.first
            let encoding =
                quote == "\"" || quote == "'" ? rest.dropFirst().prefix { $0 != quote }.lowercased() : ""
            guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding) else {
                throw refuse("The XML declaration names the encoding \"\(encoding)\".")
            }
        }
        for index in head.startIndex...(close + 1) where bytes[index] != 0x0A { bytes[index] = 0x20 }
        return try refusingRiskyMarkup(bytes)
    }

    /// `bytes`, unless they hold what discovery never has and FoundationXML or libxml2 mishandle: NUL bytes,
    /// processing instructions (an empty one crashes FoundationXML's callback), or a DTD (entities).
    private static func refusingRiskyMarkup(_ bytes: [UInt8]) throws(WOPIFormatError) -> Data {
        func contains(_ needle: String) -> Bool {
            let pattern = Array(needle.utf8)
            guard bytes.count >= pattern.count else { return false }
            return (0...(bytes.count - pattern.count)).contains {
                bytes[$0..<($0 + pattern.count)].elementsEqual(pattern)
            }
        }
        for (needle, what) in [
            ("\0", "a NUL byte"), ("<?", "a processing instruction"), ("<!DOCTYPE", "a DTD"),
            ("<!ENTITY", "an entity declaration"),
        ] where contains(needle) {
            throw WOPIFormatError(
                .malformed, format: "discovery XML", "The document holds \(what), which discovery XML never has.")
        }
        return Data(bytes)
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
