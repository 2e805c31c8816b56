import Foundation
import HTTPServer

/// The routes the test server knows.
enum TestRoute: Sendable, Equatable {
    case item(id: String)
    case echo
    case upload
    case slow
    case clientIP
    case stream
}

/// A responder over a `Router`, answering plain text that shows what the server handed it.
struct TestResponder: Responder {
    static let uploadLimit = 64
    static let tooLargeBody = #"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE","message":"body over 64 bytes"}"#

    let router: Router<TestRoute> = {
        var router = Router<TestRoute>()
        router.add(.get, "/items/{id}") { .item(id: $0["id"] ?? "") }
        router.add(.get, "/echo") { _ in .echo }
        router.add(.post, "/upload") { _ in .upload }
        router.add(.get, "/slow") { _ in .slow }
        router.add(.get, "/ip") { _ in .clientIP }
        router.add(.get, "/stream") { _ in .stream }
        return router
    }()

    func respond(to request: Request) -> Response {
        switch router.match(request.method, request.path) {
        case .found(.item(let id), _):
            return text("item \(id)")
        case .found(.echo, _):
            let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            let header = request.headers["x-test"] ?? "-"
            return text("path=\(request.path)\nquery=\(query)\nraw=\(request.rawQuery)\nx-test=\(header)")
        case .found(.upload, _):
            return Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        case .found(.slow, _):
            Thread.sleep(forTimeInterval: 1)
            return text("slept")
        case .found(.clientIP, _):
            return text("client=\(request.clientIP) remote=\(request.remoteAddress)")
        case .found(.stream, _):
            return Response(status: 200, headers: ["Content-Type": "text/plain"],
                            stream: StreamedResponseTests.pieces(fail: request.query["fail"] == "1"))
        case .methodNotAllowed(let allowed):
            return Response(status: 405, headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
        case .notFound:
            return Response(status: 404)
        }
    }

    func bodyLimit(for method: Method, path: String) -> Int { Self.uploadLimit }

    func payloadTooLarge(_ request: Request) -> Response {
        Response(status: 413, headers: ["Content-Type": "application/json"], body: Array(Self.tooLargeBody.utf8))
    }

    private func text(_ value: String) -> Response {
        Response(status: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(value.utf8))
    }
}

/// Starts a server on a free port of `host` (127.0.0.1 unless given) with the test responder.
func startServer(
    host: String = "127.0.0.1",
    threadCount: Int = 2,
    connectionTimeout: Int = 30,
    perIPConnectionLimit: Int = 0,
    headerTimeout: Double = 10,
    trustedProxies: [String] = []
) throws -> Server {
    let configuration = ServerConfiguration(
        host: host, port: 0, threadCount: threadCount, connectionTimeout: connectionTimeout,
        perIPConnectionLimit: perIPConnectionLimit, headerTimeout: headerTimeout, trustedProxies: trustedProxies
    )
    let server = Server(configuration: configuration, responder: TestResponder())
    try server.start()
    return server
}

/// Polls `condition` every 5 ms until it holds or `seconds` pass; answers whether it held.
func eventually(within seconds: Double = 2, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { return false }
        usleep(5_000)
    }
    return true
}
