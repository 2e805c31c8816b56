import Domain
import Foundation

/// Why an append, read or decode failed, as values the command layer branches on.
public enum EventStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream's current version is not the one the decider saw. `actual` is nil when the unique constraint on
    /// `(org_id, stream_id, stream_version)` caught a racer that committed after our check (the transaction is then
    /// aborted, so the current version cannot be read inside it). Re-run the decider.
    case wrongExpectedVersion(stream: String, expected: ExpectedVersion, actual: Int?)
    /// One of these event ids is already in the log (a retried request that already committed).
    case duplicateEvent(eventIds: [UUID])
    /// The event data is not acceptable event JSON (see `EventJSON`).
    case invalidEventData(String)
    /// An append with no events.
    case nothingToAppend
    /// A stored event's metadata does not have the documented shape.
    case undecodableMetadata(String)
    /// A stored event could not be decoded as the requested payload type.
    case undecodablePayload(eventType: String, schemaVersion: Int, reason: String)
    /// A column read from `events` did not have the expected form.
    case malformedRow(String)
    /// A subscription's checkpoint changed under the consumer processing it (two consumers without the lock).
    case checkpointMoved(subscription: String)

    public var description: String {
        switch self {
        case .wrongExpectedVersion(let stream, let expected, let actual):
            return "stream \(stream) is at version \(actual.map(String.init) ?? "(newer)"), expected \(expected)"
        case .duplicateEvent(let ids):
            return "an event of \(ids.map { $0.lowercasedText }) is already recorded"
        case .invalidEventData(let reason): return "event data: \(reason)"
        case .nothingToAppend: return "an append needs at least one event"
        case .undecodableMetadata(let text): return "event metadata has an unexpected shape: \(text.prefix(200))"
        case .undecodablePayload(let type, let version, let reason):
            return "cannot decode \(type) v\(version): \(reason)"
        case .malformedRow(let reason): return "malformed events row: \(reason)"
        case .checkpointMoved(let name): return "the checkpoint of subscription \(name) moved under this consumer"
        }
    }
}
