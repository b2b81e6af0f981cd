public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One exchange over a plain TCP socket, for what an HTTP client library will not send or will not reach: a request
/// cut short, headers without their body, an IPv6 literal host that FoundationNetworking's URLSession rejects. Runs
/// on a thread of its own, since it blocks; a read waits at most ``Polling/patience``.
public enum RawSocket {
    /// Why an exchange failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Sends `request` to the numeric host and port of `url` and returns what the server answers: everything until
    /// it closes the connection, or with `headOnly`, what has arrived once the answer's head is complete.
    public static func exchange(with url: URL, _ request: String, headOnly: Bool = false) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try blockingExchange(url, request, headOnly: headOnly) }) }
                .start()
        }
    }

    /// `GET` of `url` with `Connection: close`: the status and the body.
    public static func get(_ url: URL) async throws -> (status: Int, body: String) {
        let target = url.path + (url.query.map { "?\($0)" } ?? "")
        let authority = "\(url.host ?? ""):\(url.port ?? 80)"
        let text = try await exchange(
            with: url, "GET \(target) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n\r\n")
        let parts = text.components(separatedBy: "\r\n\r\n")
        let statusLine = parts.first?.split(separator: "\r\n").first ?? ""
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    private static func blockingExchange(_ url: URL, _ request: String, headOnly: Bool) throws -> String {
        guard var host = url.host, let port = url.port else { throw Failure(description: "no host or port: \(url)") }
        host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let address = info else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(info) }
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: Int(Polling.patience.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            throw Failure(description: "connect failed: errno \(errno)")
        }
        let bytes = Array(request.utf8)
        guard send(descriptor, bytes, bytes.count, 0) == bytes.count else { throw Failure(description: "send failed") }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { break }
            guard count > 0 else {
                throw Failure(description: "no answer and no close within \(Polling.patience) (errno \(errno))")
            }
            received += buffer[..<count]
            if headOnly, String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
