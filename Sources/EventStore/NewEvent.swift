import Foundation

/// An event about to be appended: id, type, schema version and data. Sequence numbers, hashes and the time are
/// assigned by the append.
public struct NewEvent: Sendable, Equatable {
    /// Unique across the whole log; pass a deterministic id to make a retried request idempotent.
    public var eventId: UUID
    public var eventType: String
    public var schemaVersion: Int
    public var data: EventJSON

    /// Creates an event from raw event JSON.
    public init(eventId: UUID = UUID(), type: String, schemaVersion: Int = 1, data: EventJSON) {
        self.eventId = eventId
        self.eventType = type
        self.schemaVersion = schemaVersion
        self.data = data
    }

    /// Creates an event from a typed payload; throws `EventStoreError.invalidEventData` for non-event JSON.
    public init<Payload: EventPayload>(_ payload: Payload, eventId: UUID = UUID()) throws {
        self.init(eventId: eventId, type: Payload.eventType, schemaVersion: Payload.schemaVersion,
                  data: try payload.eventJSON())
    }
}
