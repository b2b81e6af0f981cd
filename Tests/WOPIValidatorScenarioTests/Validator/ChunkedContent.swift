import WOPIModels
import WOPITestSupport

/// A content stream's bytes as a chunked-transfer case names them: `NewContent`/`LastKnownHostContent` text (the
/// `FullFile` scheme), or a zip resource (`NewContentResourceId`, the `Zip` scheme).
///
/// The validator ships real Office documents as its zip resources; this port builds its own stored zips of the
/// same shape (`TestZip`), with V1 → V2 changing four entries of each stream, so a delta download between them
/// carries 2 × (4 local headers + 4 data + central directory) = 18 chunks, the count the validator expects. As in
/// the validator's workbook and its alternate, the six entries that do not change are the same in both streams, so
/// a PutChunkedFile's Alternate names chunks that the host has in MainContent.
enum ChunkedContent: Sendable, Hashable {
    case text(String)
    case zeroByteOfficeDocument
    case excelMain(version: Int)
    case excelAlternate(version: Int)
    case wordMain

    var bytes: [UInt8] {
        switch self {
        case .text(let text): Array(text.utf8)
        case .zeroByteOfficeDocument: []
        case .excelMain(let version): Self.zip("xl", version: version)
        case .excelAlternate(let version): Self.zip("alt", version: version)
        case .wordMain: Self.zip("word", version: 1)
        }
    }

    /// The scheme the validator names for this content.
    var scheme: ChunkingScheme {
        if case .text = self { return .fullFile }
        return .zip
    }

    /// A zip of ten entries: 0…3 under `folder`, changing with `version`; 4…9 under `docProps`, the same in every
    /// stream and version.
    private static func zip(_ folder: String, version: Int) -> [UInt8] {
        TestZip.make(
            (0..<10).map { index in
                let folder = index < 4 ? folder : "docProps"
                let text = "<\(folder) part=\"\(index)\">" + String(repeating: "\(folder)\(index) ", count: 40 + index)
                let changing = index < 4 ? " v\(version)" : ""
                return ("\(folder)/part\(index).xml", Array((text + changing + "</\(folder)>").utf8))
            })
    }
}
