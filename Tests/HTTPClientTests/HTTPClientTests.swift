import Foundation
import HTTPClient
import Testing
import TestSupport

/// What Tests/Peers/http_receiver.py echoes back.
private struct Echo: Decodable {
    let method: String
    let path: String
    let headers: [[String]]
    let body_hex: String

    func header(_ name: String) -> String? {
        headers.first { $0[0].lowercased() == name.lowercased() }?[1]
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// A real HTTP receiver on a free port for one test.
private final class Receiver {
    let base: String
    private let peer: PeerProcess

    init() throws {
        let port = try Shell.freePort()
        base = "http://127.0.0.1:\(port)"
        peer = try PeerProcess(script: "Tests/Peers/http_receiver.py", arguments: ["--port", "\(port)"])
    }
}

struct HTTPClientTests {
    let client = HTTPClient(maxResponseBytes: 64 << 10)

    private func echo(_ response: HTTPResponse) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: Data(response.body))
    }

    @Test func aGetReachesTheReceiverWithItsPathAndHeaders() throws {
        let receiver = try Receiver()
        let response = try client.send(HTTPRequest(
            url: receiver.base + "/echo/get?x=1", headers: [("X-Handoff", "yes"), ("Accept", "application/json")]))
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("Content-Length") == String(response.body.count))
        let echo = try echo(response)
        #expect(echo.method == "GET")
        #expect(echo.path == "/echo/get?x=1")
        #expect(echo.header("X-Handoff") == "yes")
        #expect(echo.header("Accept") == "application/json")
        #expect(echo.body_hex == "")
    }

    @Test func aPostDeliversABinaryBodyByteForByte() throws {
        let receiver = try Receiver()
        let body = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let response = try client.send(HTTPRequest(
            method: "POST", url: receiver.base + "/echo/post",
            headers: [("Content-Type", "application/octet-stream"), ("X-Signature", "abc")], body: body))
        #expect(response.status == 200)
        let echo = try echo(response)
        #expect(echo.method == "POST")
        #expect(echo.body_hex == hex(body))
        #expect(echo.header("Content-Type") == "application/octet-stream")
        #expect(echo.header("Content-Length") == "4096")
        #expect(echo.header("X-Signature") == "abc")
        #expect(echo.header("Expect") == nil)
    }

    @Test func aPostWithoutContentTypeSendsNoFormContentType() throws {
        let receiver = try Receiver()
        let response = try client.send(HTTPRequest(method: "POST", url: receiver.base + "/echo", body: [0, 1, 2]))
        let echo = try echo(response)
        #expect(echo.header("Content-Type") == nil)
        #expect(echo.body_hex == "000102")
    }

    @Test func otherMethodsAreSentAsGiven() throws {
        let receiver = try Receiver()
        let put = try echo(client.send(HTTPRequest(method: "PUT", url: receiver.base + "/echo", body: [42])))
        #expect(put.method == "PUT")
        #expect(put.body_hex == "2a")
        let delete = try echo(client.send(HTTPRequest(method: "DELETE", url: receiver.base + "/echo")))
        #expect(delete.method == "DELETE")
        let emptyPost = try echo(client.send(HTTPRequest(method: "POST", url: receiver.base + "/echo")))
        #expect(emptyPost.method == "POST")
        #expect(emptyPost.header("Content-Length") == "0")
    }

    @Test(arguments: [404, 500, 503])
    func errorStatusCodesComeBackAsResponses(status: Int) throws {
        let receiver = try Receiver()
        let response = try client.send(HTTPRequest(url: receiver.base + "/status/\(status)"))
        #expect(response.status == status)
        #expect(response.body == Array("status \(status)".utf8))
    }

    @Test func aRedirectIsReturnedAndNotFollowed() throws {
        let receiver = try Receiver()
        let response = try client.send(HTTPRequest(url: receiver.base + "/redirect"))
        #expect(response.status == 302)
        #expect(response.header("Location") == "/echo/redirected")
        #expect(response.body == Array("moved".utf8))
    }

    @Test func aSlowResponseFailsWithTimeoutWithinTheTotalTimeout() throws {
        let receiver = try Receiver()
        let started = Date()
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPRequest(url: receiver.base + "/slow/5", totalTimeout: 0.5))
        }
        #expect(error?.kind == .timeout)
        #expect(Date().timeIntervalSince(started) < 2.5)
    }

    @Test func connectingToAClosedPortFailsWithConnectFailed() throws {
        let port = try Shell.freePort()
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPRequest(url: "http://127.0.0.1:\(port)/"))
        }
        #expect(error?.kind == .connectFailed)
    }

    @Test(arguments: ["", "?chunked=1"])
    func aBodyLargerThanTheCapFailsWithResponseTooLarge(query: String) throws {
        let receiver = try Receiver()
        let small = HTTPClient(maxResponseBytes: 1000)
        let error = #expect(throws: HTTPClientError.self) {
            try small.send(HTTPRequest(url: receiver.base + "/big/100000" + query))
        }
        #expect(error?.kind == .responseTooLarge)
        let exact = try small.send(HTTPRequest(url: receiver.base + "/big/1000" + query))
        #expect(exact.body == [UInt8](repeating: UInt8(ascii: "x"), count: 1000))
    }

    @Test(arguments: ["file:///etc/passwd", "gopher://127.0.0.1/", "ftp://127.0.0.1/", "dict://127.0.0.1/",
                      "/relative", "127.0.0.1:80"])
    func urlsThatAreNotHTTPAreRefused(url: String) {
        let error = #expect(throws: HTTPClientError.self) { try client.send(HTTPRequest(url: url)) }
        #expect(error?.kind == .invalidURL)
    }

    @Test func aURLWithALineBreakIsRefused() {
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPRequest(url: "http://127.0.0.1/a\r\nX-Injected: 1"))
        }
        #expect(error?.kind == .invalidURL)
    }

    @Test func headersWithLineBreaksOrBadNamesAreRefusedBeforeSending() {
        for headers in [[("X-Ok", "a\r\nX-Injected: 1")], [("X-Ok", "a\nb")], [("Bad Name", "a")], [("", "a")]] {
            let error = #expect(throws: HTTPClientError.self) {
                try client.send(HTTPRequest(url: "http://127.0.0.1:1/", headers: headers))
            }
            #expect(error?.kind == .invalidRequest)
        }
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(HTTPRequest(method: "GET /x HTTP/1.1\r\n", url: "http://127.0.0.1:1/"))
        }
        #expect(error?.kind == .invalidRequest)
    }

    @Test func oneClientServesManyThreadsAtOnce() throws {
        let receiver = try Receiver()
        let statuses = LockedStatuses()
        let base = receiver.base
        onThreads(8) { index in
            let status = (try? client.send(HTTPRequest(url: base + "/status/\(200 + index)")))?.status
            statuses.record(status ?? -1)
        }
        #expect(statuses.sorted == Array(200..<208))
    }
}

private final class LockedStatuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []

    func record(_ value: Int) { lock.withLock { values.append(value) } }
    var sorted: [Int] { lock.withLock { values.sorted() } }
}
