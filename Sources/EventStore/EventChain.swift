import Crypto
import Domain
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
        canonicalTemplate(orgId: orgId, streamId: streamId, eventId: eventId, eventType: eventType,
                          schemaVersion: schemaVersion, dataText: data.canonicalText,
                          metadataText: metadata.canonicalText)
            .filled(orgSeq: orgSeq, recordedAt: recordedAt, streamVersion: streamVersion)
    }

    /// The canonical bytes of one event with holes for the three values only known under the org's lock
    /// (`org_seq`, `recorded_at`, `stream_version`): the one implementation of the canonical form, used by
    /// `canonicalBytes` and by the append statement (which fills the holes in SQL, see `CanonicalTemplate`).
    ///
    /// `dataText` and `metadataText` must be `EventJSON.canonicalText`s. The ten members are written in code point
    /// order of their keys, each value in `EventJSON`'s canonical form; `EventChainTests` checks the result
    /// against `EventJSON.object(…).canonicalBytes`.
    public static func canonicalTemplate(
        orgId: UUID, streamId: String, eventId: UUID, eventType: String, schemaVersion: Int, dataText: String,
        metadataText: String
    ) -> CanonicalTemplate {
        func string(_ text: String) -> String { EventJSON.string(text).canonicalText }
        // A UUID's text needs no JSON escaping: its JSON string is the text in quotes.
        return CanonicalTemplate(
            head: #"{"data":"# + dataText + #","event_id":""# + eventId.lowercasedText
                + #"","event_type":"# + string(eventType) + #","metadata":"# + metadataText
                + #","org_id":""# + orgId.lowercasedText + #"","org_seq":"#,
            afterSeq: #","recorded_at":""#,
            afterTime: #"","schema_version":"# + String(schemaVersion) + #","stream_id":"# + string(streamId)
                + #","stream_version":"#,
            end: "}")
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

/// An event's canonical bytes around three holes: `head ‖ org_seq ‖ afterSeq ‖ recorded_at ‖ afterTime ‖
/// stream_version ‖ end`, integers in plain decimal and `recorded_at` in its canonical form, which needs no JSON
/// escaping (digits, `-`, `:`, `.`, `T`, `Z`), so the quotes around it are part of `afterSeq` and `afterTime`.
///
/// The `event_append` SQL function (migrations 0009, 0012) concatenates exactly these pieces with the values it reads
/// under the lock and hashes the UTF-8 of the result.
public struct CanonicalTemplate: Sendable, Equatable {
    public let head: String
    public let afterSeq: String
    public let afterTime: String
    public let end: String

    /// The canonical bytes with the holes filled.
    public func filled(orgSeq: Int, recordedAt: String, streamVersion: Int) -> [UInt8] {
        Array((head + String(orgSeq) + afterSeq + recordedAt + afterTime + String(streamVersion) + end).utf8)
    }
}
