import Crypto
import Domain
import Foundation

/// An event about to be appended: id, type, schema version and data. Sequence numbers, hashes and the time are
/// assigned by the append.
public struct NewEvent: Sendable, Equatable {
    /// Unique across the whole log; pass a deterministic id to make a retried request idempotent.
    public var eventId: UUID
    public var eventType: String
    public var schemaVersion: Int
    public var data: EventJSON {
        didSet { typed = nil }
    }
    /// The typed payload `data` was encoded from (`init(_:eventId:)`); handed to the recorded event.
    var typed: TypedPayload?

    /// Creates an event from raw event JSON.
    public init(eventId: UUID = NewEvent.makeId(), type: String, schemaVersion: Int = 1, data: EventJSON) {
        self.eventId = eventId
        self.eventType = type
        self.schemaVersion = schemaVersion
        self.data = data
    }

    /// Creates an event from a typed payload; throws `EventStoreError.invalidEventData` for non-event JSON.
    public init<Payload: EventPayload>(_ payload: Payload, eventId: UUID = NewEvent.makeId()) throws {
        let data: EventJSON
        do {
            data = try payload.eventJSON()
        } catch let error as EventPayloadError {
            throw EventStoreError.invalidEventData(error.description)
        }
        self.init(eventId: eventId, type: Payload.eventType, schemaVersion: Payload.schemaVersion, data: data)
        self.typed = TypedPayload(value: payload)
    }

    /// A fresh event id: a time-ordered UUID (version 7, RFC 9562) — the milliseconds since 1970 in the first 48
    /// bits, then 74 random bits. Ids made one after another sort near each other, so the unique index on
    /// `event_id` grows at its right edge like the log itself instead of taking every insert on a random leaf page.
    /// Nothing reads meaning into an id; the time in it is only the writer's clock.
    public static func makeId(now: Date = Date()) -> UUID {
        var bytes = SecureRandom.uuid().uuid  // version 4: 122 random bits, the variant already 10xx
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        bytes.0 = UInt8(truncatingIfNeeded: milliseconds >> 40)
        bytes.1 = UInt8(truncatingIfNeeded: milliseconds >> 32)
        bytes.2 = UInt8(truncatingIfNeeded: milliseconds >> 24)
        bytes.3 = UInt8(truncatingIfNeeded: milliseconds >> 16)
        bytes.4 = UInt8(truncatingIfNeeded: milliseconds >> 8)
        bytes.5 = UInt8(truncatingIfNeeded: milliseconds)
        bytes.6 = 0x70 | (bytes.6 & 0x0F)
        return UUID(uuid: bytes)
    }
}
