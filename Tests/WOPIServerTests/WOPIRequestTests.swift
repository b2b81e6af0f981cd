import HTTPTypes
import Testing
import WOPIHTTPEdge
import WOPIServer
import WOPIStorage

@Suite("A lossless request: the target as sent, every query pair in order")
struct WOPIRequestTests {
    private func request(_ target: String) -> WOPIRequest {
        WOPIRequest(head: HTTPRequest(method: .get, scheme: "http", authority: "h:1", path: target))
    }

    @Test func keepsTheTargetAndEveryPairInOrder() {
        let request = request("/wopi/files/a%20b?access_token=t1&x=1&access_token=t2&empty&plus=a+b%2B")
        #expect(request.target == "/wopi/files/a%20b?access_token=t1&x=1&access_token=t2&empty&plus=a+b%2B")
        #expect(request.path == "/wopi/files/a b")
        #expect(request.query.pairs.map(\.name) == ["access_token", "x", "access_token", "empty", "plus"])
        #expect(request.query["access_token"] == "t1")
        #expect(request.query.values("access_token") == ["t1", "t2"])
        #expect(request.query["empty"] == "")
        #expect(request.query["plus"] == "a b+")
        #expect(request.query.isWellFormed)
        #expect(request.accessToken == "t1")
        #expect(request.url(origin: "https://wopi.example.com/") == "https://wopi.example.com" + request.target)
    }

    @Test func aMalformedPairIsLeftOutAndReported() {
        let request = request("/p?a=1&b=%ZZ&c=%E2%82&d=4")
        #expect(request.query.pairs.map(\.name) == ["a", "d"])
        #expect(!request.query.isWellFormed)
    }

    @Test func noQuery() {
        let request = request("/wopi/files/abc")
        #expect(request.path == "/wopi/files/abc")
        #expect(request.query.pairs.isEmpty && request.query.isWellFormed)
    }
}

@Suite("WOPI URLs: the one place a WOPISrc is built")
struct WOPIURLsTests {
    @Test func buildsBelowThePublicURL() throws {
        var configuration = WOPIHostConfiguration()
        configuration.wopiPath = "/wopi"
        let urls = WOPIURLs(publicURL: "https://wopi.example.com/", configuration: configuration)
        let id = try #require(ItemID(rawValue: "abc"))
        #expect(urls.file(id) == "https://wopi.example.com/wopi/files/abc")
        #expect(urls.container(id) == "https://wopi.example.com/wopi/containers/abc")
        #expect(urls.ecosystem == "https://wopi.example.com/wopi/ecosystem")
    }
}
