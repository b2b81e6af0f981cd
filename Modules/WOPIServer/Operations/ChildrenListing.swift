import Foundation
import NIOCore
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

/// EnumerateChildren's answer, written entry by entry while it streams: each child's URL and token are made when
/// its entry is written, in buffers the listing reuses, so what the answer holds at once does not grow with the
/// number of children. The bytes are those of `WOPIResponse.json(EnumerateChildrenResponse(…))`, that is
/// `JSONEncoder`'s (`ChildrenListingTests`).
///
/// Every child's `Url` carries a token of its own: the protocol makes each one a WOPISrc with `access_token`, and a
/// token names one resource (Docs/architecture.md, "Tokens are scoped").
struct ChildrenListing: Sendable {
    /// A listed container: its name as shown and its ID.
    struct Container: Sendable {
        var name: String
        var id: ItemID
    }

    /// The child containers, in the order listed.
    var containers: [Container]
    /// The child files, in the order listed.
    var files: [FileMetadata]
    /// How file names are shown.
    let nameRules: FileNameRules
    /// The request the children's tokens are traded from.
    let context: RequestContext
    /// Signs the children's tokens.
    let signer: AccessTokenSigner

    /// About how many bytes each piece of a streamed answer holds.
    static let chunkSize = 32 * 1024

    /// The answer: one buffer when it fits in one piece (with its `Content-Length`), else a stream of pieces.
    func response() -> WOPIResponse {
        var writer = Writer(self)
        let first = writer.next()
        let body: WOPIResponse.Body
        if writer.isFinished {
            body = .buffer(first)
        } else {
            let position = writer.position
            body = .stream(
                ByteStream { [self] in
                    var rest = Writer(self, from: position)
                    var pending: ByteBuffer? = first
                    return {
                        if let chunk = pending {
                            pending = nil
                            return chunk
                        }
                        return rest.isFinished ? nil : rest.next()
                    }
                })
        }
        return .json(body: body)
    }

    /// Where a writer is: the next entry (containers first, then files) and whether the files' array is open.
    struct Position: Sendable {
        var begun = false
        var entry = 0
        var filesOpened = false
        var finished = false
    }

    /// Writes the answer's pieces in order.
    struct Writer {
        private let listing: ChildrenListing
        private(set) var position: Position
        private var trade: TokenTrade

        init(_ listing: ChildrenListing, from position: Position = Position()) {
            self.listing = listing
            self.position = position
            trade = TokenTrade(listing.context, signer: listing.signer)
        }

        var isFinished: Bool { position.finished }

        /// The next piece: entries until it holds about ``ChildrenListing/chunkSize`` bytes, with the JSON around them.
        mutating func next() -> ByteBuffer {
            var chunk = ByteBuffer()
            chunk.reserveCapacity(ChildrenListing.chunkSize + 1024)
            let containerCount = listing.containers.count
            let total = containerCount + listing.files.count
            if !position.begun {
                chunk.writeStaticString(#"{"ChildContainers":["#)
                position.begun = true
            }
            while position.entry < total, chunk.readableBytes < ChildrenListing.chunkSize {
                let index = position.entry
                if index == containerCount, !position.filesOpened {
                    openFiles(&chunk)
                } else if index > 0, index != containerCount {
                    chunk.writeInteger(UInt8(ascii: ","))
                }
                // Each entry moves the chunk in and out of its writer (`consume`): a copy left here would make every
                // entry's first write copy the whole chunk.
                if index < containerCount {
                    let container = listing.containers[index]
                    let entry = NamedURL(name: container.name, url: trade.url(for: .container(container.id)))
                    chunk = entry.json(after: consume chunk)
                } else {
                    let file = listing.files[index - containerCount]
                    let entry = ChildFile(
                        name: listing.nameRules.sanitized(file.name), url: trade.url(for: .file(file.id)),
                        size: file.size, version: file.version,
                        lastModifiedTime: WOPIJSON.timestamp(file.lastModified))
                    chunk = entry.json(after: consume chunk)
                }
                position.entry += 1
            }
            if position.entry == total {
                if !position.filesOpened { openFiles(&chunk) }
                chunk.writeStaticString("]}")
                position.finished = true
            }
            return chunk
        }

        private mutating func openFiles(_ chunk: inout ByteBuffer) {
            chunk.writeStaticString(#"],"ChildFiles":["#)
            position.filesOpened = true
        }
    }
}
