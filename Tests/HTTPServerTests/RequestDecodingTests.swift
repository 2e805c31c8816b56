import HTTPServer
import Testing

@Suite struct RequestDecodingTests {
    @Test func aRouteParameterArrivesWithItsPercentDecodedValue() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let response = try connection.request("GET", "/items/caf%C3%A9%2042")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(response.text == "item café 42")
    }

    @Test func queryParametersAndHeadersArriveDecoded() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let response = try connection.request(
            "GET", "/echo?name=J%C3%BCrgen+M%26M&flag&n=1&n=2",
            headers: [("X-Test", "hello world")]
        )
        #expect(response.status == 200)
        #expect(response.text == """
            path=/echo
            query=flag=&n=2&name=Jürgen M&M
            raw=name=J%C3%BCrgen+M%26M&flag&n=1&n=2
            x-test=hello world
            """)
    }

    @Test func postBodyBytesArriveExactlyIncludingNulBytes() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let body: [UInt8] = [0, 1, 2, 0, 0, 255, 13, 10, 13, 10, 0, 65, 0]
        let response = try connection.request("POST", "/upload", body: body)
        #expect(response.status == 200)
        #expect(response.headers["Content-Length"] == "\(body.count)")
        #expect(response.body == body)
    }

    @Test func headOnAGetRouteAnswersItsHeadersWithoutABody() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let head = try connection.request("HEAD", "/items/7")
        #expect(head.status == 200)
        #expect(head.headers["Content-Length"] == "6")
        let get = try connection.request("GET", "/items/7")
        #expect(get.text == "item 7")
    }

    @Test func anUnknownRouteAnswers404AndAWrongMethod405WithAllow() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        #expect(try connection.request("GET", "/nothing").status == 404)
        let wrongMethod = try connection.request("DELETE", "/echo")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "GET, HEAD")
    }
}
