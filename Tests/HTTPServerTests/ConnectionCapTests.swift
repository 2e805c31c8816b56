import Foundation
@testable import HTTPServer
import Testing

/// The per-client connection cap (`perIPConnectionLimit`) over real sockets: 127.0.0.1 and 127.0.0.2 are two clients
/// (all of 127.0.0.0/8 is loopback on Linux).
@Suite struct ConnectionCapTests {
    /// Opens `count` connections from `source`, each answered once and kept alive.
    private func hold(_ count: Int, from source: String, port: Int, host: String = "127.0.0.1") throws
        -> [RawHTTPConnection]
    {
        try (0..<count).map { index in
            let connection = try RawHTTPConnection(port: port, host: host, from: source)
            let response = try connection.request("GET", "/items/held-\(index)")
            #expect(response.status == 200 && response.text == "item held-\(index)")
            return connection
        }
    }

    @Test func theConnectionOverTheCapIsRefusedUnansweredWhileAnotherAddressIsServed() throws {
        let server = try startServer(perIPConnectionLimit: 3)
        defer { server.stop(drainTimeout: 1) }
        var held = try hold(3, from: "127.0.0.1", port: server.port)

        let fourth = try RawHTTPConnection(port: server.port, from: "127.0.0.1")
        #expect(throws: RawHTTPError.self) { try fourth.request("GET", "/items/fourth") }

        let other = try RawHTTPConnection(port: server.port, from: "127.0.0.2")
        #expect(try other.request("GET", "/items/other").text == "item other")

        // A held connection that ends frees its place.
        held.removeFirst()
        #expect(eventually(within: 5) {
            guard let next = try? RawHTTPConnection(port: server.port, from: "127.0.0.1") else { return false }
            return (try? next.request("GET", "/items/again"))?.text == "item again"
        })
        #expect(held.count == 2)
    }

    @Test func aTrustedProxyIsNotCappedBecauseEveryClientBehindItSharesItsAddress() throws {
        let server = try startServer(perIPConnectionLimit: 2, trustedProxies: ["127.0.0.1"])
        defer { server.stop(drainTimeout: 1) }
        let held = try hold(5, from: "127.0.0.1", port: server.port)
        #expect(held.count == 5)

        let capped = try hold(2, from: "127.0.0.2", port: server.port)
        let third = try RawHTTPConnection(port: server.port, from: "127.0.0.2")
        #expect(throws: RawHTTPError.self) { try third.request("GET", "/items/third") }
        #expect(capped.count == 2)
    }

    @Test func withoutACapOneAddressMayHoldManyConnections() throws {
        let server = try startServer(perIPConnectionLimit: 0)
        defer { server.stop(drainTimeout: 1) }
        #expect(try hold(20, from: "127.0.0.1", port: server.port).count == 20)
    }

    @Test(.enabled(if: RawHTTPConnection.hasIPv6Loopback, "the kernel has no IPv6 on its loopback interface"))
    func onADualStackSocketAnIPv4ClientCountsAsItsIPv4AddressAndIPv6ClientsByPrefix() throws {
        let server = try startServer(host: "::", perIPConnectionLimit: 2)
        defer { server.stop(drainTimeout: 1) }
        // 127.0.0.1 arrives as ::ffff:127.0.0.1 and counts as 127.0.0.1, apart from ::1 (whose /64 is ::/64).
        let ipv4 = try hold(2, from: "127.0.0.1", port: server.port)
        let third = try RawHTTPConnection(port: server.port, from: "127.0.0.1")
        #expect(throws: RawHTTPError.self) { try third.request("GET", "/items/third") }
        let ipv6 = try hold(2, from: "::1", port: server.port, host: "::1")
        let thirdIPv6 = try RawHTTPConnection(port: server.port, host: "::1", from: "::1")
        #expect(throws: RawHTTPError.self) { try thirdIPv6.request("GET", "/items/third") }
        #expect(ipv4.count == 2 && ipv6.count == 2)
    }

    @Test func theConnectionCapCountsTwoAddressesOfOneSlash64AsOneClient() throws {
        let connections = OpenConnections(limits: .init(
            perClient: 2, headerTimeout: nil, grouping: ClientAddressGrouping(), uncapped: try ProxyTrust([])))
        // Descriptors that are not sockets: the cut's shutdown(2) fails harmlessly.
        #expect(connections.opened(fd: -10, peer: "2001:db8:1:2::a"))
        #expect(connections.opened(fd: -11, peer: "2001:db8:1:2::b"))
        #expect(!connections.opened(fd: -12, peer: "2001:db8:1:2::c"))
        #expect(connections.opened(fd: -13, peer: "2001:db8:1:3::a"))
        #expect(connections.headersArrived(fd: -12) == .cut)
        #expect(connections.headersArrived(fd: -11) == .serve(peer: "2001:db8:1:2::b"))
        #expect(connections.count(peer: "2001:db8:1:2::ffff") == 3)
        connections.closed(fd: -12)
        connections.closed(fd: -10)
        #expect(connections.count(peer: "2001:db8:1:2::1") == 1)
        #expect(connections.opened(fd: -14, peer: "2001:db8:1:2::d"))
    }
}
