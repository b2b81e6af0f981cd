import Foundation
import NIOCore
import Synchronization

/// The shared state of a ``LoopbackRedirectReceiver``: the one waiter, the one accepted callback, and the open
/// connections. Every transition happens under a lock; continuations and promises are completed after it is released.
final class LoopbackReceiverState: Sendable {
    /// An accepted callback: its full URL and the promise that makes its connection answer.
    struct Delivery: Sendable {
        var url: URL
        var respond: EventLoopPromise<LoopbackPage>
    }

    private enum Phase {
        case idle
        case waiting(CheckedContinuation<Delivery, any Error>)
        case delivered(Delivery)
        case taken
        case finished(OAuthError)
    }

    private struct Inner {
        var phase = Phase.idle
        var connections: [ObjectIdentifier: any Channel] = [:]
    }

    private let inner = Mutex(Inner())

    /// Offers the callback; `false` if one was already accepted or the receiver is finished.
    func deliver(_ delivery: Delivery, from connection: any Channel) -> Bool {
        let (accepted, waiter): (Bool, CheckedContinuation<Delivery, any Error>?) = inner.withLock { inner in
            switch inner.phase {
            case .idle:
                inner.phase = .delivered(delivery)
            case .waiting(let continuation):
                inner.phase = .taken
                inner.connections[ObjectIdentifier(connection)] = nil
                return (true, continuation)
            case .delivered, .taken, .finished:
                return (false, nil)
            }
            // The answering connection closes itself once the page is written.
            inner.connections[ObjectIdentifier(connection)] = nil
            return (true, nil)
        }
        waiter?.resume(returning: delivery)
        return accepted
    }

    /// Registers the single waiter, or hands it the callback that already arrived.
    func wait(_ continuation: CheckedContinuation<Delivery, any Error>) {
        enum Action {
            case none
            case deliver(Delivery)
            case fail(OAuthError)
        }
        let action: Action = inner.withLock { inner in
            switch inner.phase {
            case .idle:
                inner.phase = .waiting(continuation)
                return .none
            case .delivered(let delivery):
                inner.phase = .taken
                return .deliver(delivery)
            case .waiting, .taken:
                return .fail(
                    OAuthError(
                        .invalidConfiguration, "This loopback receiver is already being waited on; use one per sign-in."
                    ))
            case .finished(let error):
                return .fail(error)
            }
        }
        switch action {
        case .none: break
        case .deliver(let delivery): continuation.resume(returning: delivery)
        case .fail(let error): continuation.resume(throwing: error)
        }
    }

    /// Ends the wait with an error (timeout, cancellation, close); a callback not yet taken is answered with an
    /// error page. Does nothing once a callback was taken or the receiver finished.
    func fail(_ error: OAuthError) {
        let (waiter, pending): (CheckedContinuation<Delivery, any Error>?, Delivery?) = inner.withLock { inner in
            switch inner.phase {
            case .idle:
                inner.phase = .finished(error)
                return (nil, nil)
            case .waiting(let continuation):
                inner.phase = .finished(error)
                return (continuation, nil)
            case .delivered(let delivery):
                inner.phase = .finished(error)
                return (nil, delivery)
            case .taken, .finished:
                return (nil, nil)
            }
        }
        waiter?.resume(throwing: error)
        pending?.respond.succeed(.failed(error))
    }

    /// Marks the receiver finished after the taken callback was answered.
    func finish() {
        inner.withLock { inner in
            if case .finished = inner.phase { return }
            inner.phase = .finished(
                OAuthError(.invalidConfiguration, "This loopback receiver already handled its redirect."))
        }
    }

    /// Whether no further callback will be accepted.
    var isFinished: Bool {
        inner.withLock { inner in
            switch inner.phase {
            case .idle, .waiting: false
            case .delivered, .taken, .finished: true
            }
        }
    }

    /// Tracks an accepted connection until it closes.
    func track(_ connection: any Channel) {
        let accepted = inner.withLock { inner in
            switch inner.phase {
            case .idle, .waiting:
                inner.connections[ObjectIdentifier(connection)] = connection
                return true
            case .delivered, .taken, .finished:
                return false
            }
        }
        guard accepted else {
            connection.close(promise: nil)
            return
        }
        connection.closeFuture.whenComplete { [self] _ in
            inner.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
        }
    }

    /// Removes and returns every tracked connection (idle keep-alive or preconnected sockets).
    func takeConnections() -> [any Channel] {
        inner.withLock { inner in
            defer { inner.connections.removeAll() }
            return Array(inner.connections.values)
        }
    }
}
