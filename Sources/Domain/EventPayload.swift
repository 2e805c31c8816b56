import Foundation

/// A typed event body: its type name and schema version travel with it into the log.
///
/// Product events are plain values of the domain (`Sources/Domain/Events`); the event store appends and reads them
/// without knowing any of them. Payload JSON must be event JSON (`EventJSON`): integers only, so amounts are minor
/// units and `Date`s are strings. When a payload's shape changes, bump `schemaVersion` and implement `upcast` so
/// events recorded with older versions still decode.
public protocol EventPayload: Codable, Sendable {
    /// The `event_type` stored with the event, e.g. `PaymentRecorded`. Never reuse a name for another meaning.
    static var eventType: String { get }
    /// The current version of this payload's JSON shape (1 or more).
    static var schemaVersion: Int { get }
    /// Turns stored data of an older `schemaVersion` into the current shape; the default accepts only the current
    /// version and throws `EventPayloadError.noUpcast` for any other.
    static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON
}

/// Why a payload could not be turned into event JSON or read back from it.
public enum EventPayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The payload encodes to JSON that is not event JSON (e.g. a fraction).
    case notEventJSON(eventType: String, reason: String)
    /// Stored data of this schema version has no upcast to the current one.
    case noUpcast(eventType: String, from: Int, to: Int)

    public var description: String {
        switch self {
        case .notEventJSON(let type, let reason): return "\(type): \(reason)"
        case .noUpcast(_, let from, let to): return "no upcast from version \(from) to \(to)"
        }
    }
}

extension EventPayload {
    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        guard schemaVersion == Self.schemaVersion else {
            throw EventPayloadError.noUpcast(eventType: eventType, from: schemaVersion, to: Self.schemaVersion)
        }
        return data
    }

    /// The payload as event JSON; throws `EventPayloadError.notEventJSON` when it is not (e.g. a fraction).
    ///
    /// Encoded straight into `EventJSON` (`EventJSONEncoder`); a payload that encoder does not take, or whose encoding
    /// throws, goes through `JSONEncoder` and `EventJSON.parse` and answers exactly as they do. Debug builds (the
    /// test suite) check every payload both ways.
    public func eventJSON() throws -> EventJSON {
        guard let direct = try? EventJSONEncoder.encode(self) else { return try encodedAndParsed() }
        assert(direct == (try? encodedAndParsed()),
               "EventJSONEncoder and JSONEncoder disagree on a \(Self.eventType): \(direct.canonicalText)")
        return direct
    }

    /// The payload through `JSONEncoder` and `EventJSON.parse`: the reference `EventJSONEncoder` must agree with.
    func encodedAndParsed() throws -> EventJSON {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = Array(try encoder.encode(self))
        do {
            return try EventJSON.parse(bytes)
        } catch let error as EventJSON.ParseError {
            throw EventPayloadError.notEventJSON(eventType: Self.eventType, reason: error.reason)
        }
    }
}
