/// The framing of a recording packet (`POST /v1/m/r`, docs/recordings.md): the 4 bytes `X3R1`, the header's length
/// as a 4-byte big-endian unsigned integer, the header (a JSON object) and, after it, the gzip of the NDJSON rrweb
/// events to the end of the body.
public struct RecordingFrame: Sendable, Equatable {
    /// The first four bytes of every packet.
    public static let magic: [UInt8] = Array("X3R1".utf8)
    /// Longest header, in bytes.
    public static let maxHeaderLength = 4096

    /// The header's JSON bytes.
    public var header: [UInt8]
    /// The gzip member of the events (not yet inflated).
    public var events: [UInt8]

    public init(header: [UInt8], events: [UInt8]) {
        self.header = header
        self.events = events
    }

    /// Splits `bytes` into header and events; 400 `invalid` naming the part that is wrong (`magic`, `header length`,
    /// `events`).
    public static func split(_ bytes: [UInt8]) -> Result<RecordingFrame, IngestRefusal> {
        guard bytes.count >= 8, Array(bytes[0..<4]) == magic else {
            return .failure(.invalid("packet must start with X3R1"))
        }
        let length = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard (2...maxHeaderLength).contains(length) else {
            return .failure(.invalid("header length must be 2 to \(maxHeaderLength)"))
        }
        guard bytes.count >= 8 + length else { return .failure(.invalid("header length is past the packet's end")) }
        let events = Array(bytes[(8 + length)...])
        guard !events.isEmpty else { return .failure(.invalid("events are missing after the header")) }
        return .success(RecordingFrame(header: Array(bytes[8..<(8 + length)]), events: events))
    }

    /// The bytes of a packet with `header` and `events` (SDKs and tests frame packets this way).
    public static func join(header: [UInt8], events: [UInt8]) -> [UInt8] {
        let count = UInt32(header.count)
        return magic + [UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF),
                        UInt8(count & 0xFF)] + header + events
    }
}
