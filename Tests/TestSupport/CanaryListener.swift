import Foundation

/// A TCP listener on 127.0.0.1 that never accepts: the kernel completes any handshake into its backlog, so
/// `connections()` counts every connection anyone opened to it — the SSRF tests' proof that nothing connected.
public final class CanaryListener: @unchecked Sendable {
    public let port: Int
    private let fd: Int32

    /// Binds a free port on `host` (default 127.0.0.1) and listens.
    public init(host: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = self.fd
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw Shell.Failure(command: ["bind", host], status: errno, output: "canary could not listen")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }

    /// How many connections arrived since the last call (each is accepted and closed now).
    public func connections() -> Int {
        var count = 0
        while true {
            let accepted = accept(fd, nil, nil)
            guard accepted >= 0 else { return count }
            close(accepted)
            count += 1
        }
    }
}
