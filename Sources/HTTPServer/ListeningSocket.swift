#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Opens the TCP socket the daemon accepts on, so a failure names its cause (`bind …: Address already in use`).
enum ListeningSocket {
    /// Creates a non-blocking socket bound to `host`:`port` and listening; returns it and the bound port.
    static func open(host: String, port: Int, backlog: Int32 = 511) throws(ServerError) -> (fd: Int32, port: Int) {
        guard (0...65_535).contains(port) else { throw .invalidConfiguration("port \(port) is out of range") }
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
        } else {
            throw .invalidConfiguration("host \"\(host)\" is not an IPv4 or IPv6 address")
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(operation: "socket", errno: errno) }
        do throws(ServerError) {
            var on: Int32 = 1
            guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw .socket(operation: "setsockopt SO_REUSEADDR", errno: errno)
            }
            if family == AF_INET6 {
                // `::` also takes IPv4 clients (as ::ffff:a.b.c.d) where the system allows dual-stack sockets,
                // whatever net.ipv6.bindv6only says; elsewhere it stays IPv6-only, as does every other address.
                let isAnyAddress = withUnsafeBytes(of: v6.sin6_addr) { $0.allSatisfy { $0 == 0 } }
                var v6Only: Int32 = isAnyAddress ? 0 : 1
                _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &v6Only, socklen_t(MemoryLayout<Int32>.size))
            }
            let bound = family == AF_INET
                ? withUnsafePointer(to: &v4) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                : withUnsafePointer(to: &v6) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                    }
                }
            guard bound == 0 else { throw .socket(operation: "bind \(host) port \(port)", errno: errno) }
            guard listen(fd, backlog) == 0 else { throw .socket(operation: "listen", errno: errno) }
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
                throw .socket(operation: "fcntl O_NONBLOCK", errno: errno)
            }
            return (fd, try boundPort(fd))
        } catch {
            close(fd)
            throw error
        }
    }

    private static func boundPort(_ fd: Int32) throws(ServerError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { throw .socket(operation: "getsockname", errno: errno) }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }
}
