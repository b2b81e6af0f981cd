import NIOCore
import WOPIChunking

extension FuzzTarget {
    /// The CSPP Plus frame parser (`FrameDecoder`, PutChunkedFile's and GetChunkedFile's bodies): the first byte
    /// picks how the rest is split; read whole and read in pieces, it must reach the same verdict and, when it
    /// accepts the input, the same frames and payloads; and a complete stream must re-encode to exactly its bytes.
    /// (A refused call returns no events, so the frames before a refusal depend on the split.)
    static let frames = FuzzTarget(name: "frames") { input in
        let (choice, rest) = input.selector
        let bytes = Array(rest.data)
        let whole = decodeFrames(bytes, step: max(bytes.count, 1))
        let pieces = decodeFrames(bytes, step: 1 + Int(choice % 64))
        fuzzCheck((whole.error == nil) == (pieces.error == nil), "the same verdict in any split")
        fuzzCheck(whole.error != nil || whole == pieces, "the same frames in any split")
        if whole.complete, whole.error == nil {
            var encoded: [UInt8] = []
            for (header, payload) in zip(whole.headers, whole.payloads + [[]]) { encoded += header.encoded + payload }
            fuzzCheck(encoded == bytes, "a complete stream re-encodes to its bytes")
        }
    }

    /// What a decoder reads from `bytes` fed `step` bytes at a time, up to its first error.
    private static func decodeFrames(_ bytes: [UInt8], step: Int) -> DecodedFrames {
        var decoder = FrameDecoder(maximumExtendedHeaderLength: 64)
        var result = DecodedFrames()
        var current: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + step, bytes.count)
            do {
                for event in try decoder.decode(ByteBuffer(bytes: bytes[start..<end])) {
                    switch event {
                    case .header(let header): result.headers.append(header)
                    case .payload(let part): current += Array(part.readableBytesView)
                    case .frameEnd:
                        result.payloads.append(current)
                        current = []
                    case .end: break
                    }
                }
            } catch {
                result.error = "\(error)"
                break
            }
            start = end
        }
        result.complete = decoder.isComplete
        return result
    }
}

private struct DecodedFrames: Equatable {
    var headers: [FrameHeader] = []
    var payloads: [[UInt8]] = []
    var error: String?
    var complete = false
}
