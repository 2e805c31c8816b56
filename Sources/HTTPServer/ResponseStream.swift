/// A response body made piece by piece while it is sent (`Transfer-Encoding: chunked`), for answers too large to
/// hold in memory (an export).
///
/// `next` is called on the server thread sending the response, one call at a time, until it answers nil (the end) or
/// throws: then the connection is cut, so a client sees a truncated body (no terminating chunk), never a wrong
/// complete one. A slow `next` holds that server thread, so each piece should be one short read.
public final class ResponseStream: @unchecked Sendable {
    private let next: () throws -> [UInt8]?
    private var pending: [UInt8] = []
    private var offset = 0
    private var ended = false

    /// A stream whose pieces `next` makes (an empty piece is skipped; nil ends the body).
    public init(_ next: @escaping () throws -> [UInt8]?) { self.next = next }

    /// Copies up to `max` bytes of the body into `buffer`: answers the count, -1 at the end, -2 when `next` threw
    /// (libmicrohttpd's `MHD_CONTENT_READER_END_OF_STREAM` and `…_END_WITH_ERROR`).
    func read(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        while offset == pending.count {
            if ended { return -1 }
            do {
                guard let piece = try next() else {
                    ended = true
                    return -1
                }
                pending = piece
                offset = 0
            } catch {
                ended = true
                return -2
            }
        }
        let count = min(max, pending.count - offset)
        pending.withUnsafeBytes { bytes in
            buffer.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    /// The whole body at once (in-process callers and tests); throws what `next` threw.
    public func drain() throws -> [UInt8] {
        var body: [UInt8] = []
        while let piece = try next() { body += piece }
        return body
    }
}
