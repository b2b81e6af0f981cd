/// Every object under a prefix, as ``S3ObjectStore/listAllObjects(prefix:pageSize:)`` lists them: an
/// `AsyncSequence` that asks for the next page when the current one is used up.
public struct S3ObjectListing: AsyncSequence, Sendable {
    public typealias Element = S3ListPage.Object
    public typealias Failure = any Error

    let store: S3ObjectStore
    let prefix: String?
    let pageSize: Int

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(store: store, prefix: prefix, pageSize: pageSize)
    }

    /// Iterates an ``S3ObjectListing``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let store: S3ObjectStore
        let prefix: String?
        let pageSize: Int
        private var buffered: [S3ListPage.Object] = []
        private var position = 0
        private var token: String?
        private var finished = false

        init(store: S3ObjectStore, prefix: String?, pageSize: Int) {
            self.store = store
            self.prefix = prefix
            self.pageSize = pageSize
        }

        public mutating func next() async throws -> S3ListPage.Object? {
            while position == buffered.count {
                guard !finished else { return nil }
                let page = try await store.listObjects(prefix: prefix, continuationToken: token, maxKeys: pageSize)
                buffered = page.objects
                position = 0
                token = page.nextContinuationToken
                finished = token == nil
            }
            defer { position += 1 }
            return buffered[position]
        }
    }
}
