import HTTPServer
import Testing

@Suite struct ForwardedForTests {
    @Test func xForwardedForIsHonouredWhenThePeerIsATrustedProxy() throws {
        let server = try startServer(trustedProxies: ["127.0.0.1"])
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let response = try connection.request(
            "GET", "/ip", headers: [("X-Forwarded-For", "198.51.100.1, 203.0.113.9")]
        )
        #expect(response.text == "client=203.0.113.9 remote=127.0.0.1")
    }

    @Test func trustedHopsInsideTheChainAreSkippedRightToLeft() throws {
        let server = try startServer(trustedProxies: ["127.0.0.0/8", "10.0.0.0/8"])
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let response = try connection.request(
            "GET", "/ip",
            headers: [("X-Forwarded-For", "192.0.2.66, 203.0.113.9"), ("X-Forwarded-For", "10.1.2.3")]
        )
        #expect(response.text == "client=203.0.113.9 remote=127.0.0.1")
    }

    @Test func xForwardedForIsIgnoredWhenThePeerIsNotTrusted() throws {
        let server = try startServer(trustedProxies: ["10.0.0.0/8"])
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let response = try connection.request("GET", "/ip", headers: [("X-Forwarded-For", "203.0.113.9")])
        #expect(response.text == "client=127.0.0.1 remote=127.0.0.1")
    }

    @Test func aForgedHopThatIsNotAnAddressLeavesTheLastGoodOne() throws {
        let server = try startServer(trustedProxies: ["127.0.0.1"])
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let response = try connection.request("GET", "/ip", headers: [("X-Forwarded-For", "evil, not-an-ip")])
        #expect(response.text == "client=127.0.0.1 remote=127.0.0.1")
    }

    @Test func aTrustedProxyThatIsNotAnAddressIsRefusedAtStart() {
        let server = Server(
            configuration: ServerConfiguration(port: 0, trustedProxies: ["10.0.0.0/33"]),
            responder: TestResponder()
        )
        #expect(throws: ServerError.self) { try server.start() }
    }
}
