import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

@Suite struct ConnectionTests {
    @Test func oneKeepAliveConnectionCarriesAHundredRequests() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        for index in 0..<100 {
            let response = try connection.request("GET", "/items/\(index)")
            #expect(response.status == 200)
            #expect(response.text == "item \(index)")
            #expect(response.headers["Connection"]?.lowercased() != "close")
        }
        #expect(connection.closesWithin(seconds: 0.3) == false)
        #expect(try connection.request("GET", "/items/last").text == "item last")
    }

    @Test func headersOfElevenKiBAreServedAgainAndAgainOnOneConnectionAndTwentyKiBGets431() throws {
        // Each connection's memory pool is 16 KiB (handoff_mhd_start): it is reset after every request, so a kept-alive
        // connection serves large headers as often as it is asked to; headers past the pool are refused.
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        for index in 0..<3 {
            let value = "\(index)" + String(repeating: "h", count: 11 * 1024)
            let response = try connection.request("GET", "/echo", headers: [("X-Test", value)])
            #expect(response.status == 200)
            #expect(response.text.hasSuffix("x-test=\(value)"))
        }
        let refused = try RawHTTPConnection(port: server.port)
        let response = try refused.request("GET", "/echo", headers: [("X-Test", String(repeating: "h", count: 20 * 1024))])
        #expect(response.status == 431)
    }

    @Test func aHundredConcurrentClientsEachGetTheirOwnAnswer() throws {
        let server = try startServer(threadCount: 4)
        defer { server.stop(drainTimeout: 1) }
        let answers = Mutex<[Int: String]>([:])
        let port = server.port
        onThreads(100) { index in
            let text: String
            do {
                let connection = try RawHTTPConnection(port: port)
                let response = try connection.request("POST", "/upload", body: Array("client \(index)".utf8))
                text = "\(response.status) \(response.text)"
            } catch {
                text = "failed: \(error)"
            }
            answers.withLock { $0[index] = text }
        }
        let all = answers.withLock { $0 }
        #expect(all.count == 100)
        for index in 0..<100 {
            #expect(all[index] == "200 client \(index)")
        }
    }

    @Test func aStalledClientIsDisconnectedAfterTheTimeoutWithoutBlockingOthers() throws {
        let server = try startServer(threadCount: 1, connectionTimeout: 1)
        defer { server.stop(drainTimeout: 1) }
        let stalled = try RawHTTPConnection(port: server.port)
        try stalled.send("GET /items/sl")
        let started = Date()

        let other = try RawHTTPConnection(port: server.port)
        let response = try other.request("GET", "/items/meanwhile")
        #expect(response.text == "item meanwhile")
        #expect(Date().timeIntervalSince(started) < 0.9)

        #expect(stalled.closesWithin(seconds: 5))
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.9)
        #expect(elapsed < 4)
    }

    @Test func aClientStallingInTheMiddleOfTheBodyIsDisconnectedAfterTheTimeout() throws {
        let server = try startServer(threadCount: 1, connectionTimeout: 1)
        defer { server.stop(drainTimeout: 1) }
        let stalled = try RawHTTPConnection(port: server.port)
        try stalled.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        #expect(stalled.closesWithin(seconds: 5))
        #expect(eventually { server.inFlight == 0 })
    }
}
