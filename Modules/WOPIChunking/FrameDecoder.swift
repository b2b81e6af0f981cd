public import NIOCore

/// What a ``FrameDecoder`` read.
public enum FrameEvent: Sendable, Hashable {
    /// A frame starts.
    case header(FrameHeader)
    /// The next bytes of the current frame's payload (a payload may come in several parts).
    case payload(ByteBuffer)
    /// The current frame's payload is complete.
    case frameEnd
    /// The EndFrame: the body is over.
    case end
}

/// Why a body is not a valid frame stream.
public struct FrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and where.
    public let message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Reads a CSPP Plus frame stream as it arrives, in any split: headers whole, payloads passed on as they come,
/// never buffered, so memory stays flat in the size of the body.
///
/// ```swift
/// var decoder = FrameDecoder()
/// for try await buffer in body {
///     for event in try decoder.decode(buffer) { ... }
/// }
/// try decoder.finish()   // the body must end with the EndFrame
/// ```
public struct FrameDecoder: Sendable {
    private enum State: Sendable {
        case fixedHeader([UInt8])
        case extendedHeader(FrameType, payloadLength: UInt64, needed: Int, collected: [UInt8])
        case payload(remaining: UInt64)
        case ended
    }

    /// The longest extended header accepted (a Chunk's is 16 bytes).
    public let maximumExtendedHeaderLength: Int
    private var state: State = .fixedHeader([])
    private var offset: UInt64 = 0

    /// A decoder at the start of a body.
    public init(maximumExtendedHeaderLength: Int = 1024) {
        self.maximumExtendedHeaderLength = maximumExtendedHeaderLength
    }

    /// Whether the EndFrame was read.
    public var isComplete: Bool {
        if case .ended = state { return true }
        return false
    }

    /// Whether the bytes read so far end exactly after a whole frame (or are none): where a stream of frames
    /// without an EndFrame may end, such as an upload session's (Microsoft's "create-upload-session" page).
    public var isBetweenFrames: Bool {
        if case .fixedHeader(let collected) = state { return collected.isEmpty }
        return false
    }

    /// Reads the next bytes of the body.
    ///
    /// - Throws: ``FrameError`` for an undefined frame type, an oversized or malformed extended header, or bytes
    ///   after the EndFrame. The decoder should not be used after an error.
    public mutating func decode(_ input: ByteBuffer) throws(FrameError) -> [FrameEvent] {
        var buffer = input
        var events: [FrameEvent] = []
        while buffer.readableBytes > 0 {
            switch state {
            case .fixedHeader(var collected):
                let take = min(FrameHeader.fixedLength - collected.count, buffer.readableBytes)
                collected += buffer.readBytes(length: take) ?? []
                offset += UInt64(take)
                guard collected.count == FrameHeader.fixedLength else {
                    state = .fixedHeader(collected)
                    continue
                }
                try startFrame(collected, &events)
            case .extendedHeader(let type, let payloadLength, let needed, var collected):
                let take = min(needed - collected.count, buffer.readableBytes)
                collected += buffer.readBytes(length: take) ?? []
                offset += UInt64(take)
                guard collected.count == needed else {
                    state = .extendedHeader(type, payloadLength: payloadLength, needed: needed, collected: collected)
                    continue
                }
                headerComplete(
                    FrameHeader(type: type, extendedHeader: collected, payloadLength: payloadLength), &events)
            case .payload(let remaining):
                let take = Int(min(remaining, UInt64(buffer.readableBytes)))
                if let part = buffer.readSlice(length: take) { events.append(.payload(part)) }
                offset += UInt64(take)
                if remaining == UInt64(take) {
                    events.append(.frameEnd)
                    state = .fixedHeader([])
                } else {
                    state = .payload(remaining: remaining - UInt64(take))
                }
            case .ended:
                throw FrameError("\(buffer.readableBytes) bytes follow the EndFrame at byte \(offset).")
            }
        }
        return events
    }

    /// Checks the body ended where it may: right after the EndFrame.
    public func finish() throws(FrameError) {
        guard isComplete else { throw FrameError("The body ends at byte \(offset) before its EndFrame.") }
    }

    private mutating func startFrame(_ fixed: [UInt8], _ events: inout [FrameEvent]) throws(FrameError) {
        func integer<T: FixedWidthInteger>(_ range: Range<Int>, as: T.Type) -> T {
            fixed[range].reduce(T.zero) { $0 << 8 | T($1) }
        }
        let rawType = integer(0..<4, as: UInt32.self)
        let extendedLength = integer(4..<8, as: UInt32.self)
        let payloadLength = integer(8..<16, as: UInt64.self)
        let start = offset - UInt64(FrameHeader.fixedLength)
        guard let type = FrameType(rawValue: rawType) else {
            throw FrameError("Undefined frame type \(rawType) at byte \(start).")
        }
        guard extendedLength <= maximumExtendedHeaderLength else {
            throw FrameError("A \(extendedLength)-byte extended header at byte \(start) is over the limit.")
        }
        switch type {
        case .chunk where extendedLength != ChunkID.length:
            throw FrameError("A Chunk frame's extended header is a 16-byte ChunkId, not \(extendedLength) bytes.")
        case .endFrame where extendedLength != 0 || payloadLength != 0:
            throw FrameError("The EndFrame at byte \(start) has an extended header or a payload.")
        case .messageJSON where extendedLength != 0:
            throw FrameError("A MessageJSON frame has no extended header.")
        default:
            break
        }
        if extendedLength == 0 {
            headerComplete(FrameHeader(type: type, payloadLength: payloadLength), &events)
        } else {
            state = .extendedHeader(type, payloadLength: payloadLength, needed: Int(extendedLength), collected: [])
        }
    }

    private mutating func headerComplete(_ header: FrameHeader, _ events: inout [FrameEvent]) {
        events.append(.header(header))
        if header.type == .endFrame {
            events.append(.end)
            state = .ended
        } else if header.payloadLength == 0 {
            events.append(.frameEnd)
            state = .fixedHeader([])
        } else {
            state = .payload(remaining: header.payloadLength)
        }
    }
}
