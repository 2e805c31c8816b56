import Foundation
import HTTPServer

/// A response as read off the wire.
struct RawResponse: Sendable {
    let status: Int
    let headers: Headers
    let body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A client failure: a socket call failed, timed out, or the peer closed early.
struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
}

/// One HTTP/1.1 client connection over a plain TCP socket, so tests can see exactly what goes over it
/// (several requests on one socket, half-sent requests, whether the server closed).
final class RawHTTPConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host`:`port` (an IPv4 or IPv6 literal), from the local address `source` when given (e.g.
    /// `127.0.0.2`, any of 127.0.0.0/8 works on Linux); reads and writes give up after `timeout` seconds.
    init(port: Int, host: String = "127.0.0.1", from source: String? = nil, timeout: Double = 10) throws {
        let remote = try Self.socketAddress(host, port: port)
        fd = socket(Int32(remote.ss_family), Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError(description: "socket: errno \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = try Self.socketAddress(source, port: 0)
            let length = Self.length(of: local)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw RawHTTPError(description: "bind \(source): errno \(code)")
            }
        }
        if let code = Self.connect(fd, to: remote) {
            close(fd)
            throw RawHTTPError(description: "connect: errno \(code)")
        }
    }

    deinit { close(fd) }

    /// The errno of a connection attempt to 127.0.0.1:`port`, or nil when it was accepted.
    static func connectionError(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        guard let address = try? socketAddress("127.0.0.1", port: port) else { return EINVAL }
        return connect(fd, to: address)
    }

    /// Whether the kernel has IPv6 on its loopback interface (`::1` in /proc/net/if_inet6).
    static var hasIPv6Loopback: Bool {
        let interfaces = (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8)) ?? ""
        return interfaces.contains("00000000000000000000000000000001")
    }

    private static func socketAddress(_ host: String, port: Int) throws -> sockaddr_storage {
        var storage = sockaddr_storage()
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeBytes(of: v4) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeBytes(of: v6) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
        } else {
            throw RawHTTPError(description: "\(host) is not an IP address")
        }
        return storage
    }

    private static func length(of address: sockaddr_storage) -> socklen_t {
        socklen_t(Int32(address.ss_family) == AF_INET6 ? MemoryLayout<sockaddr_in6>.size
                                                       : MemoryLayout<sockaddr_in>.size)
    }

    private static func connect(_ fd: Int32, to remote: sockaddr_storage) -> Int32? {
        var address = remote
        let length = length(of: remote)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        return status == 0 ? nil : errno
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw RawHTTPError(description: "send: errno \(errno)") }
            offset += written
        }
    }

    /// Writes `text` as UTF-8.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request with `Content-Length` when there is a body and reads its response.
    func request(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
        return try readResponse(bodyless: method == "HEAD")
    }

    /// Reads one response (Content-Length, chunked, or until close); `bodyless` for answers to HEAD.
    func readResponse(bodyless: Bool = false) throws -> RawResponse {
        let headEnd: Int = try {
            while true {
                if let end = find([13, 10, 13, 10]) { return end }
                try fill()
            }
        }()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw RawHTTPError(description: "bad status line in \(head)")
        }
        var headers = Headers()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        if bodyless || status == 204 || status == 304 {
            return RawResponse(status: status, headers: headers, body: [])
        }
        if let length = headers["Content-Length"].flatMap({ Int($0) }) {
            while buffer.count < length { try fill() }
            let body = Array(buffer[..<length])
            buffer.removeFirst(length)
            return RawResponse(status: status, headers: headers, body: body)
        }
        if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while true {
                let lineEnd: Int = try {
                    while true {
                        if let end = find([13, 10]) { return end }
                        try fill()
                    }
                }()
                let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                    throw RawHTTPError(description: "bad chunk size")
                }
                buffer.removeFirst(lineEnd + 2)
                while buffer.count < size + 2 { try fill() }
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { return RawResponse(status: status, headers: headers, body: body) }
            }
        }
        while (try? fill()) != nil {}
        let body = buffer
        buffer = []
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Sends `bytes` one at a time, `interval` seconds apart, until the server closes the connection; answers the
    /// seconds from the first byte to the close, or nil when every byte went out and the server kept the connection
    /// for another `interval`.
    func trickle(_ bytes: [UInt8], every interval: Double) -> Double? {
        let started = Date()
        for byte in bytes {
            if (try? send([byte])) == nil { return Date().timeIntervalSince(started) }
            if closesWithin(seconds: interval) { return Date().timeIntervalSince(started) }
        }
        return nil
    }

    /// Whether the server closes the connection within `seconds` (reads until end of stream; data is dropped).
    func closesWithin(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&descriptor, 1, remaining) > 0 else { continue }
            var scratch = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &scratch, scratch.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
        return false
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        return (0...(buffer.count - needle.count)).first {
            buffer[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else {
            throw RawHTTPError(description: count == 0 ? "connection closed by server" : "recv: errno \(errno)")
        }
        buffer += chunk[..<count]
    }
}
