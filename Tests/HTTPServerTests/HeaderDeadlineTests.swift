import Foundation
import HTTPServer
import Testing

/// The total deadline for a request's headers (`headerTimeout`), which a client cannot stretch by trickling bytes
/// that keep the connection from ever being idle.
@Suite struct HeaderDeadlineTests {
    private static let request = Array("GET /items/late HTTP/1.1\r\nHost: x\r\nX-Padding: abcdefghij\r\n\r\n".utf8)

    @Test func aClientSendingItsHeadersAByteASecondIsCutAtTheDeadline() throws {
        // Idle timeout 3 s, never reached: a byte comes every second. The 2 s header deadline cuts it.
        let server = try startServer(connectionTimeout: 3, headerTimeout: 2)
        defer { server.stop(drainTimeout: 1) }
        let slow = try RawHTTPConnection(port: server.port)
        let cutAfter = try #require(slow.trickle(Self.request, every: 1), "never cut")
        #expect(cutAfter >= 1.8 && cutAfter < 3.5, "cut after \(cutAfter) s")
        // Nothing was answered, and the server still serves others.
        #expect(server.inFlight == 0)
        #expect(try RawHTTPConnection(port: server.port).request("GET", "/items/next").text == "item next")
    }

    @Test func aClientThatSendsNothingIsCutAtTheDeadlineBeforeTheIdleTimeout() throws {
        let server = try startServer(connectionTimeout: 30, headerTimeout: 1)
        defer { server.stop(drainTimeout: 1) }
        let silent = try RawHTTPConnection(port: server.port)
        let started = Date()
        #expect(silent.closesWithin(seconds: 5))
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func aKeptAliveConnectionMayIdlePastTheDeadlineButItsNextHeadersMustArriveInTime() throws {
        let server = try startServer(connectionTimeout: 10, headerTimeout: 1)
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        #expect(try connection.request("GET", "/items/first").text == "item first")
        // Idle between requests for longer than the header deadline: only the idle timeout applies there.
        Thread.sleep(forTimeInterval: 2)
        #expect(try connection.request("GET", "/items/second").text == "item second")
        Thread.sleep(forTimeInterval: 1.5)
        // The third request's deadline runs from its first byte, not from the end of the second response.
        let cutAfter = try #require(connection.trickle(Self.request, every: 0.4), "never cut")
        #expect(cutAfter >= 0.7 && cutAfter < 2.2, "cut after \(cutAfter) s")
    }

    @Test func headersThatArriveInTimeAreServedHoweverSlowTheBodyIs() throws {
        let server = try startServer(connectionTimeout: 5, headerTimeout: 1)
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n")
        for byte in Array("abc".utf8) {
            Thread.sleep(forTimeInterval: 0.6)
            try connection.send([byte])
        }
        let response = try connection.readResponse()
        #expect(response.status == 200 && response.text == "abc")
    }
}
