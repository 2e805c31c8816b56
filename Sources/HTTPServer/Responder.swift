/// What the server calls to answer requests; the API layer implements it.
///
/// All three methods are called on libmicrohttpd's pool threads, possibly on several at once.
public protocol Responder: Sendable {
    /// Answers a complete request. Runs on a server pool thread and may block on I/O; while it runs,
    /// that thread serves no other connection.
    func respond(to request: Request) -> Response

    /// The largest body, in bytes, accepted for a route. Larger bodies are never buffered: the client gets
    /// `payloadTooLarge(_:)` instead.
    func bodyLimit(for method: Method, path: String) -> Int

    /// The 413 response for a request whose body went over `bodyLimit(for:path:)`; `request.body` is empty.
    func payloadTooLarge(_ request: Request) -> Response
}
