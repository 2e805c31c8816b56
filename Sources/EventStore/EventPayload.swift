import Foundation

/// A typed event body: its type name and schema version travel with it into the log.
///
/// Encode with `NewEvent(payload)`; decode with `RecordedEvent.decode(_:)`. Payload JSON must be event JSON
/// (`EventJSON`): integers only, so amounts are minor units and `Date`s are strings. When a payload's shape changes,
/// bump `schemaVersion` and implement `upcast` so events recorded with older versions still decode.
public protocol EventPayload: Codable, Sendable {
    /// The `event_type` stored with the event, e.g. `PaymentRecorded`. Never reuse a name for another meaning.
    static var eventType: String { get }
    /// The current version of this payload's JSON shape (1 or more).
    static var schemaVersion: Int { get }
    /// Turns stored data of an older `schemaVersion` into the current shape; the default accepts only the current
    /// version.
    static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON
}

extension EventPayload {
    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        guard schemaVersion == Self.schemaVersion else {
            throw EventStoreError.undecodablePayload(
                eventType: eventType, schemaVersion: schemaVersion,
                reason: "no upcast from version \(schemaVersion) to \(Self.schemaVersion)")
        }
        return data
    }

    /// The payload as event JSON; throws `EventStoreError.invalidEventData` when it is not (e.g. a fraction).
    public func eventJSON() throws -> EventJSON {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = Array(try encoder.encode(self))
        do {
            return try EventJSON.parse(bytes)
        } catch let error as EventJSON.ParseError {
            throw EventStoreError.invalidEventData("\(Self.eventType): \(error.reason)")
        }
    }
}
