import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// One `GET` over a plain TCP socket, for IPv6 literal hosts that FoundationNetworking's URLSession rejects. Runs on
/// a thread of its own, since it blocks.
func rawHTTPGet(_ url: URL) async throws -> (status: Int, body: String) {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try blockingGet(url) }) }.start()
    }
}

private struct RawHTTPError: Error, CustomStringConvertible {
    var description: String
}

private func blockingGet(_ url: URL) throws -> (status: Int, body: String) {
    guard var host = url.host, let port = url.port else { throw RawHTTPError(description: "no host or port") }
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
        throw RawHTTPError(description: "cannot resolve \(host)")
    }
    defer { freeaddrinfo(info) }
    let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
    guard descriptor >= 0 else { throw RawHTTPError(description: "socket failed") }
    defer { close(descriptor) }
    guard connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
        throw RawHTTPError(description: "connect failed: errno \(errno)")
    }
    let target = url.path + (url.query.map { "?\($0)" } ?? "")
    let request = "GET \(target) HTTP/1.1\r\nHost: \(url.host ?? host):\(port)\r\nConnection: close\r\n\r\n"
    let sent = request.withCString { send(descriptor, $0, strlen($0), 0) }
    guard sent == request.utf8.count else { throw RawHTTPError(description: "send failed") }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += buffer[0..<count]
    }
    let text = String(decoding: received, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    let statusLine = parts.first?.split(separator: "\r\n").first ?? ""
    let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
}
