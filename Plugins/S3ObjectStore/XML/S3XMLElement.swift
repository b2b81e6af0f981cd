import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An element of an XML document S3 answered with (a listing, an error, a multipart result), parsed whole: these
/// bodies are small and bounded (``S3XMLElement/maximumBodySize``).
struct S3XMLElement: Sendable {
    /// The element's name without a namespace prefix (`ListBucketResult`, `Contents`, `Key`).
    var name: String
    /// The text directly inside the element (entities decoded).
    var text: String
    /// The child elements, in document order.
    var children: [S3XMLElement]

    /// The largest XML body read: 16 MiB (a listing of 1000 keys of 1 KiB is about 1.3 MB).
    static let maximumBodySize = 16 << 20

    /// The first child named `name`.
    func child(_ name: String) -> S3XMLElement? { children.first { $0.name == name } }

    /// Every child named `name`.
    func children(_ name: String) -> [S3XMLElement] { children.filter { $0.name == name } }

    /// The text of the first child named `name`.
    func text(of name: String) -> String? { child(name)?.text }

    /// Parses `bytes` into its root element.
    ///
    /// - Throws: ``S3Error/Code/invalidResponse`` when the bytes are not well-formed XML.
    static func parse(_ bytes: [UInt8]) throws -> S3XMLElement {
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw S3Error(
                .invalidResponse,
                "The S3 server answered with XML that cannot be read"
                    + (parser.parserError.map { ": \($0.localizedDescription)" } ?? "."))
        }
        return root
    }

    /// Builds the tree as the parser reports elements.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [S3XMLElement] = []
        var root: S3XMLElement?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(S3XMLElement(name: name, text: "", children: []))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
