import Crypto
import Foundation

/// The per-org hash chain: the canonical bytes of an event and how each hash links to the previous one.
///
/// `hash(n) = SHA-256(hash(n-1) ‖ canonicalBytes(n))`, with `hash(0)` = 32 zero bytes (`genesisHash`), where
/// `canonicalBytes` is the UTF-8 canonical JSON (`EventJSON.canonicalBytes`) of the object
/// `{data, event_id, event_type, metadata, org_id, org_seq, recorded_at, schema_version, stream_id, stream_version}`.
/// docs/event-store.md specifies it for auditors.
public enum EventChain {
    /// The `prev_hash` of every org's first event (`org_seq` 1): 32 zero bytes.
    public static let genesisHash = [UInt8](repeating: 0, count: SHA256.byteCount)

    /// The canonical bytes of one event. UUIDs are lowercase with hyphens; `recordedAt` must be canonical
    /// (`YYYY-MM-DDTHH:MM:SS.ffffffZ`, UTC).
    public static func canonicalBytes(
        orgId: UUID, orgSeq: Int, streamId: String, streamVersion: Int, eventId: UUID, eventType: String,
        schemaVersion: Int, recordedAt: String, data: EventJSON, metadata: EventJSON
    ) -> [UInt8] {
        EventJSON.object([
            "data": data,
            "event_id": .string(eventId.uuidString.lowercased()),
            "event_type": .string(eventType),
            "metadata": metadata,
            "org_id": .string(orgId.uuidString.lowercased()),
            "org_seq": .integer(Int64(orgSeq)),
            "recorded_at": .string(recordedAt),
            "schema_version": .integer(Int64(schemaVersion)),
            "stream_id": .string(streamId),
            "stream_version": .integer(Int64(streamVersion)),
        ]).canonicalBytes
    }

    /// `SHA-256(previous ‖ canonical)`.
    public static func hash(previous: [UInt8], canonical: [UInt8]) -> [UInt8] {
        SHA256.hash(previous + canonical)
    }

    /// Parses a canonical `recorded_at` (`2025-01-31T12:00:00.000001Z`); nil for any other form.
    public static func date(fromCanonical text: String) -> Date? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 27, utf8[4] == UInt8(ascii: "-"), utf8[10] == UInt8(ascii: "T"),
              utf8[19] == UInt8(ascii: "."), utf8[26] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: utf8[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let micros = number(20..<26) else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let whole = calendar.date(from: components) else { return nil }
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970.rounded() + Double(micros) / 1_000_000)
    }
}
