import Foundation
import Testing
@testable import TestSupport

/// `Shell.freePort`, which every test peer and scratch server takes its port from.
struct FreePortTests {
    @Test func portsAreDistinctBelowTheEphemeralRangeAndBindable() throws {
        let ephemeralStart = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
            .flatMap { $0.split(whereSeparator: \.isWhitespace).first }.flatMap { Int($0) } ?? 32768
        var ports: Set<Int> = []
        for _ in 0..<50 {
            let port = try Shell.freePort()
            #expect(Shell.freePortRange.contains(port))
            #expect(port < ephemeralStart, "\(port) is in the ephemeral range, where outgoing connections take ports")
            #expect(ports.insert(port).inserted, "\(port) was handed out twice")
        }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(ports.first!).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        #expect(bound)
    }
}
