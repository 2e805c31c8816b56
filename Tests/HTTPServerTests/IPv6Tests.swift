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
        #expect(RawHTTPConnection.connectionError(port: server.port) == ECONNREFUSED)
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
