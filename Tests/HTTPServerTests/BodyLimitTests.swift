import HTTPServer
import Testing

@Suite struct BodyLimitTests {
    @Test func aBodyAnnouncedOverTheLimitIsAnswered413WithTheRespondersBody() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let response = try connection.request("POST", "/upload", body: [UInt8](repeating: 7, count: 65))
        #expect(response.status == 413)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.text == TestResponder.tooLargeBody)
    }

    @Test func aBodyAnnouncedOverTheLimitIsRefusedBeforeItIsSent() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.text == TestResponder.tooLargeBody)
    }

    @Test func aChunkedBodyGrowingOverTheLimitIsAnswered413WithTheRespondersBody() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        var request = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        for _ in 0..<5 { request += "14\r\n" + String(repeating: "a", count: 20) + "\r\n" }
        request += "0\r\n\r\n"
        try connection.send(request)
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.text == TestResponder.tooLargeBody)
    }

    @Test func aChunkedBodyFarOverTheLimitGetsItsConnectionCut() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port, timeout: 3)
        try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 98, count: 65_536) + Array("\r\n".utf8)
        for _ in 0..<40 {
            guard (try? connection.send(chunk)) != nil else { break }
        }
        #expect(connection.closesWithin(seconds: 3))
        #expect(eventually { server.inFlight == 0 })
    }

    @Test func aChunkedBodyWithinTheLimitArrivesWhole() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let request = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        try connection.send(request)
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "hello world")
    }

    @Test func aBodyExactlyAtTheLimitIsAccepted() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let body = [UInt8](repeating: 9, count: TestResponder.uploadLimit)
        let response = try connection.request("POST", "/upload", body: body)
        #expect(response.status == 200)
        #expect(response.body == body)
    }
}
