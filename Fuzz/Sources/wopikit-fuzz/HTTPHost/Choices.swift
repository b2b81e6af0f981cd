/// Reads a fuzz input as a series of choices, one byte each (a length as one byte, or 255 and two more): a byte
/// past the end reads as 0, so any input decodes, and the first entry of every table is the common case.
struct ChoiceReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    /// Whether every byte was read.
    var isAtEnd: Bool { bytes.isEmpty }

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// An index below `count`.
    mutating func index(below count: Int) -> Int { Int(byte()) % count }

    /// One of `options`.
    mutating func pick<T>(_ options: [T]) -> T { options[index(below: options.count)] }

    /// A run of bytes after its length (at most `limit`, and what is left of the input).
    mutating func bytes(upTo limit: Int) -> [UInt8] {
        var length = Int(byte())
        if length == 255 { length = Int(byte()) << 8 | Int(byte()) }
        let taken = bytes.prefix(min(length, limit))
        bytes.removeFirst(taken.count)
        return Array(taken)
    }
}

/// Writes the bytes a ``ChoiceReader`` reads back as the same choices: the seed corpus is made with it.
struct ChoiceWriter {
    private(set) var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// The byte that reads back as `option` from `options`.
    mutating func pick<T: Equatable>(_ option: T, in options: [T]) {
        guard let index = options.firstIndex(of: option) else { preconditionFailure("\(option) is not an option") }
        bytes.append(UInt8(index))
    }

    mutating func bytes(_ run: [UInt8]) {
        let run = run.prefix(0xFFFF)
        if run.count < 255 {
            bytes.append(UInt8(run.count))
        } else {
            bytes += [255, UInt8(run.count >> 8 & 0xFF), UInt8(run.count & 0xFF)]
        }
        bytes += run
    }
}

/// A choice that an input's bytes decode to and a seed encodes back to.
protocol Choice: Equatable, Sendable {
    init(from reader: inout ChoiceReader)
    func write(to writer: inout ChoiceWriter)
}

/// A choice among the cases of an enumeration, in their declaration order.
protocol CaseChoice: Choice, CaseIterable where AllCases == [Self] {}

extension CaseChoice {
    init(from reader: inout ChoiceReader) { self = reader.pick(Self.allCases) }
    func write(to writer: inout ChoiceWriter) { writer.pick(self, in: Self.allCases) }
}
