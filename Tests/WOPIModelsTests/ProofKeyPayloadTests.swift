import Foundation
import Testing
import WOPIModels

@Suite struct ProofKeyPayloadTests {
    @Test func layoutIsLengthPrefixedBigEndian() {
        let payload = ProofKeyPayload(
            accessToken: "ab%2f", url: "https://h/wopi/files/x?access_token=ab%2f", timestamp: 0x0102_0304_0506_0708)
        let url = Array("HTTPS://H/WOPI/FILES/X?ACCESS_TOKEN=AB%2F".utf8)
        var expected: [UInt8] = [0, 0, 0, 5] + Array("ab%2f".utf8)
        expected += [0, 0, 0, UInt8(url.count)] + url
        expected += [0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8]
        #expect(payload.bytes == expected)
        #expect(payload.data == Data(expected))
    }

    @Test func upperCasesLikeDotNetInvariant() {
        #expect(ProofKeyPayload.invariantUppercased("https://a.b/c?x=%2fy") == "HTTPS://A.B/C?X=%2FY")
        #expect(ProofKeyPayload.invariantUppercased("straße") == "STRAßE")
        #expect(ProofKeyPayload.invariantUppercased("résumé ǆ ı") == "RÉSUMÉ Ǆ I")
        #expect(ProofKeyPayload.invariantUppercased("日本😀") == "日本😀")
        let payload = ProofKeyPayload(accessToken: "t", url: "https://h/é", timestamp: 1)
        #expect(payload.bytes.count == 4 + 1 + 4 + "HTTPS://H/É".utf8.count + 4 + 8)
    }

    /// Fuzzing regression (`Fuzz/Corpus/proof-key/regression-ticks-overflow`): a time stamp below
    /// `Int64.min + unixEpoch` trapped in the subtraction, so one `X-WOPI-TimeStamp` header stopped the host.
    @Test func anyTickCountIsAMoment() {
        #expect(DotNetTicks.date(fromTicks: .min) == .distantPast)
        #expect(DotNetTicks.date(fromTicks: -9_000_000_000_000_000_000) == .distantPast)
        #expect(DotNetTicks.date(fromTicks: .max) > Date(timeIntervalSince1970: 2e11))
        let justInRange = Int64.min + DotNetTicks.unixEpoch
        #expect(DotNetTicks.date(fromTicks: justInRange) < Date(timeIntervalSince1970: -9e11))
    }

    @Test func convertsTicks() {
        #expect(DotNetTicks.unixEpoch == 621_355_968_000_000_000)
        #expect(DotNetTicks.ticks(from: Date(timeIntervalSince1970: 0)) == DotNetTicks.unixEpoch)
        #expect(
            DotNetTicks.ticks(fromUnixMilliseconds: 1_717_000_000_000) == 1_717_000_000_000 * 10_000
                + 621_355_968_000_000_000)
        let date = Date(timeIntervalSince1970: 1_717_000_000.25)
        #expect(DotNetTicks.ticks(from: date) == DotNetTicks.ticks(fromUnixMilliseconds: 1_717_000_000_250))
        #expect(DotNetTicks.date(fromTicks: DotNetTicks.ticks(from: date)) == date)
        // A time stamp from Microsoft's sample vectors: 2015-04-23.
        let sample = DotNetTicks.date(fromTicks: 635_655_897_610_773_532)
        #expect(abs(sample.timeIntervalSince1970 - 1_429_992_961.077_353_2) < 0.001)
        #expect(DotNetTicks.perMinute * 20 == 12_000_000_000)
    }
}
