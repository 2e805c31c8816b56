import HTTPServer
import Testing

/// A `ResponseStream` body goes out chunked as its pieces are made; a stream that fails cuts the connection before
/// the last chunk, so the client never sees a complete body.
@Suite struct StreamedResponseTests {
    /// "first\n", 100 000 bytes of "x", an empty piece (skipped), "last\n" — or a failure after the first piece.
    static func pieces(fail: Bool) -> ResponseStream {
        var made = 0
        return ResponseStream {
            made += 1
            switch made {
            case 1: return Array("first\n".utf8)
            case 2 where fail: throw StreamFailure()
            case 2: return [UInt8](repeating: 0x78, count: 100_000)
            case 3: return []
            case 4: return Array("last\n".utf8)
            default: return nil
            }
        }
    }

    struct StreamFailure: Error {}

    @Test func aStreamedBodyArrivesChunkedAndWhole() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port)
        let response = try connection.request("GET", "/stream")
        #expect(response.status == 200)
        #expect(response.headers["Transfer-Encoding"]?.lowercased() == "chunked")
        #expect(response.headers["Content-Length"] == nil)
        #expect(response.body == Array("first\n".utf8) + [UInt8](repeating: 0x78, count: 100_000)
            + Array("last\n".utf8))
        // The connection stays usable.
        #expect(try connection.request("GET", "/items/7").text == "item 7")
        #expect(try Self.pieces(fail: false).drain().count == 100_011)
    }

    @Test func aFailingStreamCutsTheConnectionBeforeTheLastChunk() throws {
        let server = try startServer()
        defer { server.stop(drainTimeout: 1) }
        let connection = try RawHTTPConnection(port: server.port, timeout: 3)
        #expect((try? connection.request("GET", "/stream?fail=1")) == nil)
        #expect(eventually { server.inFlight == 0 })
    }
}
