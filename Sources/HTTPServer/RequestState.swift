/// One request's progress across libmicrohttpd callbacks; lives in the connection's `*con_cls`.
///
/// Created in the URI log callback, released in the request-completed callback. libmicrohttpd calls one
/// connection's callbacks from one thread at a time, so it needs no lock.
final class RequestState {
    /// The request-target bytes exactly as on the request line.
    let rawTarget: [UInt8]
    /// The request built when its headers arrived (body still empty).
    var request: Request?
    /// Body bytes allowed for this route.
    var bodyLimit = 0
    /// Body bytes received so far (never more than `bodyLimit`).
    var body: [UInt8] = []
    /// Whether the body went over the limit; the rest is discarded and a 413 answers.
    var isTooLarge = false
    /// Bytes thrown away after the body went over the limit.
    var discardedBytes = 0
    /// Whether a response has been queued.
    var hasResponded = false
    /// Whether this request counts in `ServerContext.inFlight`.
    var isCounted = false

    init(rawTarget: [UInt8]) {
        self.rawTarget = rawTarget
    }
}
