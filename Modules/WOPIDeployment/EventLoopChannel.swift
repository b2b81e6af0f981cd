import HummingbirdCore
import Logging
import NIOCore

/// Handles a connection's requests on the event loop that reads the connection, so that a request and its socket
/// share one thread.
///
/// Hummingbird runs handlers on Swift's cooperative pool, so each request crosses threads twice, on its way in and
/// on its way out; for a short request such as CheckFileInfo those switches were a large part of its CPU. This
/// wrapper gives the connection's task a preference for its channel's event loop (`withTaskExecutorPreference`),
/// so the task, its child tasks and the default actors it calls run there (`Docs/architecture.md`, "Requests run on
/// their connection's event loop"). Work that can wait still leaves the loop, as before: NIO's thread pool,
/// GRDB's writer, the network.
///
/// It also lets the connection read up to `maximumReadSize` bytes at once (NIO's default is 64 KiB): each read
/// goes through the HTTP decoder, the channel's async stream and the task reading the body, so a body read in
/// larger pieces costs less CPU per byte (``WOPIDeployment/Configuration/maximumReadSize``). It reads once per turn
/// of the loop (NIO's default is up to 4 times), so that the other connections of the loop wait for at most one
/// read: with 4 reads of 1 MiB per turn, the p99 of a CheckFileInfo beside a 1 GiB PutFile rose by half.
struct EventLoopChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let maximumReadSize: Int

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // NIO's own bounds, whatever the configuration says: reads start at 2 KiB and never go below 64 bytes.
        let maximum = max(maximumReadSize, 64)
        let reads = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: min(2048, maximum), maximum: maximum)
        return channel.setOption(ChannelOptions.recvAllocator, value: reads)
            .flatMap { channel.setOption(ChannelOptions.maxMessagesPerRead, value: 1) }
            .flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// A `TaskExecutor` that runs jobs on one NIO event loop.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}
