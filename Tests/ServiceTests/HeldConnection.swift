import Foundation

/// A plain TCP connection to 127.0.0.1 from a chosen loopback address (any of 127.0.0.0/8 on Linux), kept open until
/// released, for tests of the per-IP connection cap of the running service.
final class HeldConnection {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private let fd: Int32

    init(port: Int, from source: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = Self.address(source, port: 0)
        var remote = Self.address("127.0.0.1", port: port)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        let connected = bound == 0 ? withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
        } : -1
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "bind/connect from \(source): errno \(code)")
        }
    }

    deinit { close(fd) }

    /// Sends `GET path` and answers the response's status code, or nil when the server closed without one.
    func get(_ path: String) -> Int? {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { return nil }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.contains(10) {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            received += chunk[..<count]
        }
        let statusLine = String(decoding: received.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }
}
