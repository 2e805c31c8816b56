import Foundation
import HTTPServer
import Testing

/// Listening on IPv6: `::1`, and `::` with IPv4 clients on the same socket where the system allows dual stack.
@Suite(.enabled(if: RawHTTPConnection.hasIPv6Loopback, "the kernel has IPv6 disabled (no ::1 in /proc/net/if_inet6)"))
struct IPv6Tests {
    @Test func aServerOnIPv6LoopbackAnswersAndSeesTheIPv6Client() throws {
        let server = try startServer(host: "::1")
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port, host: "::1")
        let response = try connection.request("GET", "/ip")
        #expect(response.status == 200)
        #expect(response.text == "client=::1 remote=::1")
        // Nothing answers IPv4 on the port. Another server of the suite, running in parallel on 127.0.0.1, may have
        // been given the same port number (a port is taken per address): a fresh server on ::1 then tries again. A
        // server that listened on IPv4 too would never be refused.
        var refused = RawHTTPConnection.connectionError(port: server.port) == ECONNREFUSED
        for _ in 0..<5 where !refused {
            let another = try startServer(host: "::1")
            defer { another.stop(drainTimeout: 1) }
            refused = RawHTTPConnection.connectionError(port: another.port) == ECONNREFUSED
        }
        #expect(refused, "an IPv4 client reached the port of a server listening on ::1 only")
    }

    @Test func aServerOnTheIPv6AnyAddressAlsoAnswersIPv4ClientsAndSeesThemAsIPv4() throws {
        let server = try startServer(host: "::")
        defer { server.stop(drainTimeout: 1) }
        let v4 = try RawHTTPConnection(port: server.port, host: "127.0.0.1")
        #expect(try v4.request("GET", "/ip").text == "client=127.0.0.1 remote=127.0.0.1")
        let v6 = try RawHTTPConnection(port: server.port, host: "::1")
        #expect(try v6.request("GET", "/ip").text == "client=::1 remote=::1")
    }
}
