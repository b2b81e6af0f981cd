import Foundation
import NIOHTTP1
import Testing

@testable import S3ObjectStore

@Suite("Reading S3's answers: listings, error documents, dates and ranges (FoundationXML)")
struct ResponseParsingTests {
    static func xml(_ text: String) throws -> S3XMLElement { try S3XMLElement.parse(Array(text.utf8)) }

    @Test("a ListObjectsV2 page, keys URL-decoded")
    func listPage() throws {
        let page = try S3ObjectStore.page(
            Self.xml(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
                  <Name>b</Name><Prefix></Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys>
                  <EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>
                  <Contents><Key>a+b%2Bc/%D0%BA%26</Key><LastModified>2009-10-12T17:50:30.000Z</LastModified>
                    <ETag>&quot;fba9dede5f27731c9771645a39863328&quot;</ETag><Size>434234</Size></Contents>
                  <Contents><Key>z</Key><Size>0</Size><ETag>"e"</ETag></Contents>
                  <CommonPrefixes><Prefix>photos%2F</Prefix></CommonPrefixes>
                  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
                </ListBucketResult>
                """))
        #expect(page.objects.map(\.key) == ["a b+c/к&", "z"])
        #expect(page.objects[0].size == 434_234)
        #expect(page.objects[0].etag == "\"fba9dede5f27731c9771645a39863328\"")
        #expect(page.objects[0].lastModified == Date(timeIntervalSince1970: 1_255_369_830))
        #expect(page.commonPrefixes == ["photos/"])
        #expect(page.nextContinuationToken == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
    }

    @Test("a listing that goes on without a token, or another document, is an invalid response")
    func badListings() throws {
        let truncated = try Self.xml("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>")
        #expect(throws: S3Error.self) { try S3ObjectStore.page(truncated) }
        #expect(throws: S3Error.self) { try S3ObjectStore.page(try Self.xml("<Other/>")) }
        let broken = #expect(throws: S3Error.self) { try Self.xml("<ListBucketResult><Contents>") }
        #expect(broken?.code == .invalidResponse)
        // External entities are never resolved: the file is not read into the document.
        let entity = try? Self.xml("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>")
        #expect(entity?.text.contains("root") != true)
    }

    @Test("an error document; an HTML page from a proxy is none")
    func errorDocuments() {
        let body = S3ErrorBody(
            Array(
                """
                <?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The resource you \
                requested does not exist</Message><Resource>/mybucket/myfoto.jpg</Resource>\
                <RequestId>4442587FB7D0A2F9</RequestId></Error>
                """.utf8))
        #expect(
            body
                == S3ErrorBody(
                    code: "NoSuchKey", message: "The resource you requested does not exist",
                    requestID: "4442587FB7D0A2F9", region: nil))
        #expect(S3ErrorBody(Array("<html><body>Bad gateway</body></html>".utf8)) == nil)
        #expect(S3ErrorBody([]) == nil)
    }

    @Test("XML written for S3 escapes what it must and refuses what it cannot carry")
    func xmlWriter() {
        var writer = S3XMLWriter()
        writer.open("Delete", namespaced: true)
        writer.element("Key", "a&b<c>\"d'e\r")
        writer.close("Delete")
        #expect(
            writer.text
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                + "<Key>a&amp;b&lt;c&gt;&quot;d&apos;e&#13;</Key></Delete>")
        #expect(S3XMLWriter.isRepresentable("tab\tand\nnewline"))
        #expect(!S3XMLWriter.isRepresentable("bell\u{07}"))
    }

    @Test("HTTP and ISO 8601 dates")
    func dates() {
        #expect(S3Dates.httpDate("Wed, 12 Oct 2009 17:50:00 GMT") == Date(timeIntervalSince1970: 1_255_369_800))
        #expect(S3Dates.httpDate("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(S3Dates.httpDate("Wed, 12 Oct 2009 17:50:00 PST") == nil)
        #expect(S3Dates.httpDate("yesterday") == nil)
        #expect(S3Dates.iso8601("2009-10-12T17:50:30.500Z") == Date(timeIntervalSince1970: 1_255_369_830.5))
        #expect(S3Dates.iso8601("2009-10-12T17:50:30Z") == Date(timeIntervalSince1970: 1_255_369_830))
        #expect(S3Dates.iso8601("2009-13-12T17:50:30Z") == nil)
    }

    @Test("Content-Range")
    func contentRange() throws {
        #expect(S3ObjectStore.contentRange("bytes 0-9/1234")?.range == 0...9)
        #expect(S3ObjectStore.contentRange("bytes 0-9/1234")?.size == 1234)
        #expect(S3ObjectStore.contentRange("bytes 5-9/*")?.size == nil)
        #expect(S3ObjectStore.contentRange("bytes 9-5/10") == nil)
        #expect(S3ObjectStore.contentRange("items 0-1/2") == nil)
        #expect(throws: S3Error.self) { try S3ByteRange.bytes(-1...3) }
        #expect(throws: S3Error.self) { try S3ByteRange.last(0) }
        #expect(try S3ByteRange.bytes(0...9).headerValue == "bytes=0-9")
    }
}
