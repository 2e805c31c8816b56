import CMicroHTTPD

// libmicrohttpd's callbacks. They are global functions (never closures in `main`): C threads call them,
// and their context travels through `void *cls` (a `ServerContext`) and `*con_cls` (a `RequestState`).

/// Once a chunked body has gone over its limit, the rest is read and thrown away so that the 413 can be sent
/// when it ends (libmicrohttpd cannot answer in the middle of a body). Past this many discarded bytes (or the
/// route's limit, if larger) the connection is cut without an answer.
let discardAllowance = 1 << 20

/// Called with the raw request-target as soon as the request line has arrived; creates the request state.
let uriLogged: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
    -> UnsafeMutableRawPointer? = { _, uri, _ in
        let target = uri.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
        return Unmanaged.passRetained(RequestState(rawTarget: target)).toOpaque()
    }

/// Called when the headers have arrived, again for each piece of body, and once more when the body is complete.
let accessHandler: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
    UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?,
    UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result = { cls, connection, url, method, _, uploadData, uploadDataSize, conCls in
    guard let cls, let connection, let uploadDataSize, let conCls else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state: RequestState
    if let existing = conCls.pointee {
        state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    } else {
        let target = url.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
        state = RequestState(rawTarget: target)
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
    }

    guard let request = state.request else {
        // A connection cut (over the per-client cap, or past the header deadline) is never served.
        guard case .serve(let peer) = context.connections.headersArrived(fd: handoff_mhd_connection_fd(connection))
        else { return .NO }
        return headersArrived(state, context: context, connection: connection, method: method,
                              peer: peer ?? peerAddress(connection))
    }
    let size = uploadDataSize.pointee
    if size > 0 {
        uploadDataSize.pointee = 0
        if !state.isTooLarge, state.body.count + size <= state.bodyLimit, let uploadData {
            state.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            return .YES
        }
        // libmicrohttpd 0.9.75 refuses MHD_queue_response while a body is arriving, so the 413 waits for its end.
        state.isTooLarge = true
        state.body = []
        state.discardedBytes += size
        return state.discardedBytes > max(discardAllowance, state.bodyLimit) ? .NO : .YES
    }
    guard !state.hasResponded else { return .YES }
    state.hasResponded = true
    if state.isTooLarge {
        return queue(context.responder.payloadTooLarge(request), on: connection)
    }
    var complete = request
    complete.body = state.body
    state.body = []
    return queue(context.responder.respond(to: complete), on: connection)
}

/// Called when a request is over (answered, failed or cut); frees its state.
let requestCompleted: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    MHD_RequestTerminationCode
) -> Void = { cls, connection, conCls, _ in
    guard let cls else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if let connection { context.connections.requestEnded(fd: handoff_mhd_connection_fd(connection)) }
    guard let conCls, let pointer = conCls.pointee else { return }
    conCls.pointee = nil
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
    if state.isCounted {
        context.inFlight.subtract(1, ordering: .relaxed)
    }
}

/// Called when a connection starts (before its first byte is read) and when it closes (before its socket is closed):
/// the per-client cap and the header deadline (`OpenConnections`) follow connections through it.
let connectionNotified: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    MHD_ConnectionNotificationCode
) -> Void = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let connections = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().connections
    let fd = handoff_mhd_connection_fd(connection)
    guard fd >= 0 else { return }
    switch code {
    case .CONNECTION_NOTIFY_STARTED: connections.opened(fd: fd, peer: peerAddress(connection))
    case .CONNECTION_NOTIFY_CLOSED: connections.closed(fd: fd)
    @unknown default: break
    }
}

/// First call for a request: copy everything out of libmicrohttpd, pick the body limit, refuse early if
/// the announced body is too large.
private func headersArrived(
    _ state: RequestState,
    context: ServerContext,
    connection: OpaquePointer,
    method: UnsafePointer<CChar>?,
    peer: String
) -> MHD_Result {
    context.inFlight.add(1, ordering: .relaxed)
    state.isCounted = true
    let target = RequestTarget(raw: state.rawTarget)
    var headers = Headers()
    withUnsafeMutablePointer(to: &headers) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, pointer)
    }
    let forwardedFor = headers.values("X-Forwarded-For")
    let client = context.proxyTrust.client(peer: peer, forwardedFor: forwardedFor)
    let request = Request(
        method: Method(method.map { String(cString: $0) } ?? ""),
        path: target.path,
        query: target.query,
        headers: headers,
        body: [],
        clientIP: client.ip,
        remoteAddress: peer,
        rawQuery: target.rawQuery,
        forwardedClientIP: client.forwardedIP
    )
    state.request = request
    state.bodyLimit = max(0, context.responder.bodyLimit(for: request.method, path: request.path))
    let announced = headers["Content-Length"].flatMap { Int($0[...].trimmingSpaces()) }
    if let announced, announced > state.bodyLimit {
        state.isTooLarge = true
        state.hasResponded = true
        return queue(context.responder.payloadTooLarge(request), on: connection)
    }
    return .YES
}

/// Appends one header field to the `Headers` that `cls` points to.
private let collectHeader: @convention(c) (
    UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int
) -> MHD_Result = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key else { return .YES }
    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
    let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) }
    cls.assumingMemoryBound(to: Headers.self).pointee.add(name, text ?? "")
    return .YES
}

/// The connection's peer address as text, or "" when libmicrohttpd cannot tell.
private func peerAddress(_ connection: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let status = buffer.withUnsafeMutableBufferPointer {
        handoff_mhd_client_ip(connection, $0.baseAddress, socklen_t($0.count))
    }
    guard status == 0 else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Hands a response to libmicrohttpd, which copies the body; `Content-Length` is left to it. A streamed body is
/// sent chunked, read through `streamRead` (libmicrohttpd keeps the stream until it calls `streamFreed`).
private func queue(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
    let handle: OpaquePointer?
    if let stream = response.stream {
        handle = MHD_create_response_from_callback(UInt64.max, 32 * 1024, streamRead,
                                                   Unmanaged.passRetained(stream).toOpaque(), streamFreed)
    } else {
        handle = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
    }
    guard let handle else { return .NO }
    defer { MHD_destroy_response(handle) }
    for (name, value) in response.headers.pairs where !isContentLength(name) {
        _ = MHD_add_response_header(handle, name, value)
    }
    return MHD_queue_response(connection, UInt32(clamping: response.status), handle)
}

/// Whether a header name is `Content-Length`, in any case, without allocating.
private func isContentLength(_ name: String) -> Bool {
    let expected = "content-length".utf8
    guard name.utf8.count == expected.count else { return false }
    return zip(name.utf8, expected).allSatisfy { ($0 | 0x20) == $1 }
}

/// Reads the next bytes of a streamed body (`ResponseStream`) into libmicrohttpd's buffer.
let streamRead: @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafeMutablePointer<CChar>?, Int) -> Int = {
    cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }
    return Unmanaged<ResponseStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
}

/// Releases a streamed body once libmicrohttpd is done with it (sent, failed or the connection closed).
let streamFreed: @convention(c) (UnsafeMutableRawPointer?) -> Void = { cls in
    guard let cls else { return }
    Unmanaged<ResponseStream>.fromOpaque(cls).release()
}
