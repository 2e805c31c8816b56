/// One Redis reply, copied out of hiredis' memory into Swift values.
///
/// An `-ERR …` reply is a value (`.error`), not a thrown error; call `checked()` to throw it instead.
/// A nil bulk string and a nil multi-bulk (`*-1`) are both `.null`.
public enum RedisReply: Sendable, Equatable {
    /// A simple string such as `OK` or `PONG`.
    case status(String)
    /// An error reply such as `WRONGTYPE Operation against a key holding the wrong kind of value`.
    case error(String)
    /// An integer reply (`INCR`, `EXISTS`, …).
    case integer(Int64)
    /// A bulk string: arbitrary bytes, not necessarily UTF-8.
    case bulk([UInt8])
    /// A missing value (`GET` of an absent key, a missing `MGET` element).
    case null
    /// A multi-bulk reply.
    case array([RedisReply])

    /// The text of a bulk or status reply decoded as UTF-8 (invalid bytes replaced); `nil` for other replies.
    public var string: String? {
        switch self {
        case .status(let text): text
        case .bulk(let bytes): String(decoding: bytes, as: UTF8.self)
        default: nil
        }
    }

    /// The value of an integer reply; `nil` for other replies.
    public var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The bytes of a bulk reply; `nil` for other replies.
    public var bytes: [UInt8]? {
        if case .bulk(let bytes) = self { bytes } else { nil }
    }

    /// The elements of an array reply; `nil` for other replies.
    public var elements: [RedisReply]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// This reply, or a thrown `RedisError(.server)` when it is an error reply.
    ///
    /// `try pool.command(["SET", key, value]).checked()` for callers that treat `-ERR` as exceptional.
    @discardableResult
    public func checked() throws -> RedisReply {
        if case .error(let message) = self { throw RedisError(.server, message) }
        return self
    }
}
