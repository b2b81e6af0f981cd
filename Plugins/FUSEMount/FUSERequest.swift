import CFuse3
import Foundation
import Logging

/// One request from the kernel, answered exactly once through a `fuse_reply_*` call.
///
/// libfuse allows the reply to come after the callback returned and from any thread; the callbacks in
/// ``LowLevelOperations`` rely on that to answer from Swift tasks, so the FUSE thread never waits for the
/// backend.
struct FUSERequest: @unchecked Sendable {
    /// The libfuse request handle, valid until replied to.
    let raw: fuse_req_t

    init(_ raw: fuse_req_t) {
        self.raw = raw
    }

    /// Who made a request: the calling process's user and group, which own what it creates.
    struct Caller: Sendable {
        let user: uid_t
        let group: gid_t
    }

    /// The caller of this request (`fuse_req_ctx`).
    var caller: Caller {
        let context = fuse_req_ctx(raw)!.pointee
        return Caller(user: context.uid, group: context.gid)
    }

    /// The mount's file system (the session's user data).
    var fileSystem: FUSEFileSystem {
        Unmanaged<FUSEFileSystem>.fromOpaque(fuse_req_userdata(raw)!).takeUnretainedValue()
    }

    /// Replies at once.
    func reply(_ reply: FUSEReply) {
        reply.send(to: self)
    }

    /// Replies with the `errno` for `error`, and logs it.
    func fail(_ error: any Error, operation: StaticString) {
        let code = FileSystemFailure.errno(for: error)
        let logger = fileSystem.logger
        let metadata: Logger.Metadata = [
            "operation": "\(operation)", "errno": "\(String(cString: strerror(code)))", "error": "\(error)",
        ]
        switch code {
        case ENOENT:
            logger.trace("FUSE operation failed", metadata: metadata)
        case EIO, ETIMEDOUT, ESTALE:
            logger.warning("FUSE operation failed", metadata: metadata)
        default:
            logger.debug("FUSE operation failed", metadata: metadata)
        }
        reply(.status(code))
    }

    /// Answers from a new task that runs `work` bounded by the operation timeout (`ETIMEDOUT` when it passes).
    ///
    /// The FUSE thread returns at once. A reply that arrives too late, or that the kernel no longer wants, is
    /// undone with ``FUSEReply/abandon(in:)``.
    func respond(
        _ operation: StaticString, _ work: @escaping @Sendable (FUSEFileSystem, Watchdog) async throws -> FUSEReply
    ) {
        let request = self
        let fileSystem = fileSystem
        Task {
            do {
                let reply = try await withDeadline(
                    fileSystem.environment.timeout, clock: fileSystem.environment.clock,
                    { try await work(fileSystem, $0) },
                    onAbandoned: { $0.abandon(in: fileSystem) })
                if !reply.send(to: request) { reply.abandon(in: fileSystem) }
            } catch {
                request.fail(error, operation: operation)
            }
        }
    }
}
