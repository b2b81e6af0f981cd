/// Bob Jenkins' SpookyHash V2, 128 bits, as CSPP Plus names chunks (`ChunkId`): streamed, so a chunk of any size
/// is hashed in constant memory.
///
/// The result is the two 64-bit halves in little-endian order, first half first, as Microsoft's WOPI validator
/// lays them out before base64 (`"foobar"` → `md7tA6VXwIaaYjdO4o8XZQ==` with seeds 0). Feeding the same bytes in
/// any split gives the one-shot hash.
///
/// ```swift
/// var hasher = SpookyHash()
/// hasher.update(firstPart)
/// hasher.update(secondPart)
/// let id = hasher.finalize()   // ChunkID
/// ```
public struct SpookyHash: Sendable {
    private static let numberOfVariables = 12
    private static let blockSize = 96  // numberOfVariables * 8
    private static let bufferSize = 192  // 2 * blockSize: shorter messages take the short path
    private static let constant: UInt64 = 0xdead_beef_dead_beef

    private let seed1: UInt64
    private let seed2: UInt64
    /// Bytes not mixed yet: everything while the message is shorter than ``bufferSize``, then less than a block.
    private var pending: [UInt8] = []
    private var length = 0
    /// The long path's state, once the message reached ``bufferSize`` bytes.
    private var state: Variables? = nil

    /// A hasher with the seeds CSPP Plus uses, 0 and 0, unless others are given.
    public init(seed1: UInt64 = 0, seed2: UInt64 = 0) {
        self.seed1 = seed1
        self.seed2 = seed2
        pending.reserveCapacity(Self.bufferSize)
    }

    /// The hash of `bytes`, in one call.
    public static func hash(_ bytes: some Sequence<UInt8>) -> ChunkID {
        var hasher = SpookyHash()
        hasher.update(Array(bytes))
        return hasher.finalize()
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        length += bytes.count
        if state == nil {
            let take = min(Self.bufferSize - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            guard pending.count == Self.bufferSize else { return }
            let (a, b, c) = (seed1, seed2, Self.constant)
            state = Variables(a, b, c, a, b, c, a, b, c, a, b, c)
        }
        guard var variables = state else { return }
        // Mix whole blocks: first what is pending (a whole block only once it fills up), then straight from `bytes`.
        if !pending.isEmpty {
            let take = min(Self.blockSize - pending.count % Self.blockSize, bytes.count - offset)
            if pending.count % Self.blockSize != 0 {
                pending.append(contentsOf: bytes[offset..<(offset + take)])
                offset += take
            }
            let whole = pending.count / Self.blockSize * Self.blockSize
            pending.withUnsafeBytes { raw in
                for start in stride(from: 0, to: whole, by: Self.blockSize) { Self.mix(raw, at: start, &variables) }
            }
            pending.removeFirst(whole)
        }
        while bytes.count - offset >= Self.blockSize {
            Self.mix(bytes, at: offset, &variables)
            offset += Self.blockSize
        }
        pending.append(contentsOf: bytes[offset...])
        state = variables
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The hash of everything added.
    public func finalize() -> ChunkID {
        let (first, second): (UInt64, UInt64)
        if let state {
            var variables = state.array
            var block = pending + [UInt8](repeating: 0, count: Self.blockSize - pending.count)
            block[Self.blockSize - 1] = UInt8(pending.count)
            block.withUnsafeBytes { raw in
                for index in 0..<Self.numberOfVariables { variables[index] &+= Self.word(raw, index * 8) }
            }
            for _ in 0..<3 { Self.endPartial(&variables) }
            (first, second) = (variables[0], variables[1])
        } else {
            (first, second) = pending.withUnsafeBytes { Self.short($0, length: length, seed1, seed2) }
        }
        return ChunkID(first: first, second: second)
    }

    // MARK: - The algorithm (SpookyV2.cpp)

    /// The long path's twelve variables.
    private struct Variables: Sendable {
        var s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11: UInt64

        init(
            _ s0: UInt64, _ s1: UInt64, _ s2: UInt64, _ s3: UInt64, _ s4: UInt64, _ s5: UInt64, _ s6: UInt64,
            _ s7: UInt64, _ s8: UInt64, _ s9: UInt64, _ s10: UInt64, _ s11: UInt64
        ) {
            (self.s0, self.s1, self.s2, self.s3, self.s4, self.s5) = (s0, s1, s2, s3, s4, s5)
            (self.s6, self.s7, self.s8, self.s9, self.s10, self.s11) = (s6, s7, s8, s9, s10, s11)
        }

        var array: [UInt64] { [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11] }
    }

    private static func word(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// SpookyV2's `Mix` of one 96-byte block at `start`, with the twelve variables in registers; written out, as
    /// in the reference, because a loop over an array of them was about a third as fast.
    private static func mix(_ raw: UnsafeRawBufferPointer, at start: Int, _ v: inout Variables) {
        var (s0, s1, s2, s3, s4, s5) = (v.s0, v.s1, v.s2, v.s3, v.s4, v.s5)
        var (s6, s7, s8, s9, s10, s11) = (v.s6, v.s7, v.s8, v.s9, v.s10, v.s11)
        s0 &+= word(raw, start)
        s2 ^= s10; s11 ^= s0; s0 = rotate(s0, 11); s11 &+= s1
        s1 &+= word(raw, start + 8)
        s3 ^= s11; s0 ^= s1; s1 = rotate(s1, 32); s0 &+= s2
        s2 &+= word(raw, start + 16)
        s4 ^= s0; s1 ^= s2; s2 = rotate(s2, 43); s1 &+= s3
        s3 &+= word(raw, start + 24)
        s5 ^= s1; s2 ^= s3; s3 = rotate(s3, 31); s2 &+= s4
        s4 &+= word(raw, start + 32)
        s6 ^= s2; s3 ^= s4; s4 = rotate(s4, 17); s3 &+= s5
        s5 &+= word(raw, start + 40)
        s7 ^= s3; s4 ^= s5; s5 = rotate(s5, 28); s4 &+= s6
        s6 &+= word(raw, start + 48)
        s8 ^= s4; s5 ^= s6; s6 = rotate(s6, 39); s5 &+= s7
        s7 &+= word(raw, start + 56)
        s9 ^= s5; s6 ^= s7; s7 = rotate(s7, 57); s6 &+= s8
        s8 &+= word(raw, start + 64)
        s10 ^= s6; s7 ^= s8; s8 = rotate(s8, 55); s7 &+= s9
        s9 &+= word(raw, start + 72)
        s11 ^= s7; s8 ^= s9; s9 = rotate(s9, 54); s8 &+= s10
        s10 &+= word(raw, start + 80)
        s0 ^= s8; s9 ^= s10; s10 = rotate(s10, 22); s9 &+= s11
        s11 &+= word(raw, start + 88)
        s1 ^= s9; s10 ^= s11; s11 = rotate(s11, 46); s10 &+= s0
        v = Variables(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11)
    }

    private static let endRotations: [UInt64] = [44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54]

    private static func endPartial(_ h: inout [UInt64]) {
        for i in 0..<numberOfVariables {
            h[(i + 11) % 12] &+= h[(i + 1) % 12]
            h[(i + 2) % 12] ^= h[(i + 11) % 12]
            h[(i + 1) % 12] = rotate(h[(i + 1) % 12], endRotations[i])
        }
    }

    private static func shortMix(_ h: inout (UInt64, UInt64, UInt64, UInt64)) {
        for (r0, r1, r2, r3) in [(50, 52, 30, 41), (54, 48, 38, 37), (62, 34, 5, 36)]
            as [(UInt64, UInt64, UInt64, UInt64)]
        {
            h.2 = rotate(h.2, r0); h.2 &+= h.3; h.0 ^= h.2
            h.3 = rotate(h.3, r1); h.3 &+= h.0; h.1 ^= h.3
            h.0 = rotate(h.0, r2); h.0 &+= h.1; h.2 ^= h.0
            h.1 = rotate(h.1, r3); h.1 &+= h.2; h.3 ^= h.1
        }
    }

    private static func shortEnd(_ h: inout (UInt64, UInt64, UInt64, UInt64)) {
        let rotations: [UInt64] = [15, 52, 26, 51, 28, 9, 47, 54, 32, 25, 63]
        for (step, rotation) in rotations.enumerated() {
            switch step % 4 {
            case 0: h.3 ^= h.2; h.2 = rotate(h.2, rotation); h.3 &+= h.2
            case 1: h.0 ^= h.3; h.3 = rotate(h.3, rotation); h.0 &+= h.3
            case 2: h.1 ^= h.0; h.0 = rotate(h.0, rotation); h.1 &+= h.0
            default: h.2 ^= h.1; h.1 = rotate(h.1, rotation); h.2 &+= h.1
            }
        }
    }

    /// The short path, for messages under 192 bytes.
    private static func short(_ raw: UnsafeRawBufferPointer, length: Int, _ seed1: UInt64, _ seed2: UInt64)
        -> (UInt64, UInt64)
    {
        var h = (seed1, seed2, constant, constant)
        var offset = 0
        var remainder = length % 32
        if length > 15 {
            while offset + 32 <= length {
                h.2 &+= word(raw, offset)
                h.3 &+= word(raw, offset + 8)
                shortMix(&h)
                h.0 &+= word(raw, offset + 16)
                h.1 &+= word(raw, offset + 24)
                offset += 32
            }
            if remainder >= 16 {
                h.2 &+= word(raw, offset)
                h.3 &+= word(raw, offset + 8)
                shortMix(&h)
                offset += 16
                remainder -= 16
            }
        }
        h.3 &+= UInt64(length) << 56
        func byte(_ index: Int) -> UInt64 { UInt64(raw[offset + index]) }
        func half(_ index: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + index, as: UInt32.self)))
        }
        switch remainder {
        case 12...15:
            for index in stride(from: remainder - 1, through: 12, by: -1) {
                h.3 &+= byte(index) << UInt64(8 * (index - 8))
            }
            h.3 &+= half(8)
            h.2 &+= word(raw, offset)
        case 8...11:
            for index in stride(from: remainder - 1, through: 8, by: -1) {
                h.3 &+= byte(index) << UInt64(8 * (index - 8))
            }
            h.2 &+= word(raw, offset)
        case 4...7:
            for index in stride(from: remainder - 1, through: 4, by: -1) { h.2 &+= byte(index) << UInt64(8 * index) }
            h.2 &+= half(0)
        case 1...3:
            for index in stride(from: remainder - 1, through: 0, by: -1) { h.2 &+= byte(index) << UInt64(8 * index) }
        default:
            h.2 &+= constant
            h.3 &+= constant
        }
        shortEnd(&h)
        return (h.0, h.1)
    }
}
