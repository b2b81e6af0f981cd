import Foundation
import Logging
public import WOPIModels
public import WOPIStorage

/// A file open for editing (Office's open → save → close): it holds the lock, refreshes it in the background
/// and releases it on ``close()``.
///
/// ```swift
/// let session = try await client.openForEditing(file)
/// for try await chunk in session.content.body { ... }
/// try await session.save(newContent)
/// try await session.close()
/// ```
public actor WOPIEditSession {
    /// The file.
    public nonisolated let file: WOPIResource
    /// CheckFileInfo as it was when the file was opened.
    public nonisolated let info: CheckFileInfo
    /// The lock ID held.
    public nonisolated let lockID: String
    /// The content as opened (single pass).
    public nonisolated let content: WOPIDownload
    /// The version after the last save (or at opening).
    public private(set) var version: String?
    /// How many times the lock has been refreshed so far.
    public private(set) var refreshCount = 0
    /// The last error of a background refresh, if the last one failed.
    public private(set) var refreshError: WOPIClientError?
    /// Whether ``close()`` ran.
    public private(set) var isClosed = false

    private let client: WOPIClient
    private var refresher: Task<Void, Never>?

    /// A new random lock ID in the spirit of Office's (opaque, JSON-free, well under 256 characters).
    public static func newLockID() -> String { "wopikit-\(UUID().uuidString.lowercased())" }

    init(
        client: WOPIClient, file: WOPIResource, info: CheckFileInfo, lockID: String, content: WOPIDownload,
        refreshInterval: Duration, clock: any Clock<Duration>
    ) {
        self.client = client
        self.file = file
        self.info = info
        self.lockID = lockID
        self.content = content
        self.version = content.version ?? info.version
        Task { await self.startRefreshing(every: refreshInterval, on: clock) }
    }

    private func startRefreshing(every interval: Duration, on clock: any Clock<Duration>) {
        guard !isClosed, refresher == nil else { return }
        refresher = Task { [weak self, client, file, lockID] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                do {
                    try await client.refreshLock(file, lockID: lockID)
                    await self?.didRefresh(nil)
                } catch {
                    if Task.isCancelled { return }
                    let failure =
                        error as? WOPIClientError
                        ?? WOPIClientError(.transport, "RefreshLock failed.", underlying: error)
                    client.logger.warning(
                        "Could not refresh the lock",
                        metadata: ["file": "\(file.endpoint)", "error": "\(failure.code)"])
                    await self?.didRefresh(failure)
                }
            }
        }
    }

    private func didRefresh(_ error: WOPIClientError?) {
        if error == nil { refreshCount += 1 }
        refreshError = error
    }

    /// Saves new content with the held lock (PutFile); returns the new version.
    @discardableResult
    public func save(_ content: ByteStream, progress: TransferProgress? = nil) async throws -> String? {
        guard !isClosed else {
            throw WOPIClientError(.badRequest, "The file was closed; open it again to save.")
        }
        version = try await client.putFile(file, content: content, lock: lockID, progress: progress)
        return version
    }

    /// Stops refreshing and releases the lock (Unlock). Safe to call twice.
    public func close() async throws {
        guard !isClosed else { return }
        isClosed = true
        refresher?.cancel()
        refresher = nil
        if let unlocked = try await client.unlock(file, lockID: lockID) { version = unlocked }
    }
}
