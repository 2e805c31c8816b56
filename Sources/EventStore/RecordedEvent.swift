import Domain
import Foundation
import Postgres

/// An event as the log holds it: identity, position, body, metadata and its link in the org's hash chain.
public struct RecordedEvent: Sendable, Equatable {
    public var orgId: UUID
    /// Position in the org's history: 1, 2, 3 … without holes, in commit order.
    public var orgSeq: Int
    /// Insertion order across all orgs (an identity column); NOT commit order — see `GlobalCheckpoint`.
    public var globalPosition: Int
    /// The appending transaction's id (`xid8`).
    public var transactionId: UInt64
    public var streamId: String
    /// Position in the stream: 1, 2, 3 …
    public var streamVersion: Int
    public var eventId: UUID
    public var eventType: String
    public var schemaVersion: Int
    public var data: EventJSON
    public var metadata: EventMetadata
    /// The stored `metadata` JSON exactly (what the hash covers).
    public var metadataJSON: EventJSON
    /// UTC, microseconds, canonical form `YYYY-MM-DDTHH:MM:SS.ffffffZ` (what the hash covers).
    public var recordedAt: String
    public var previousHash: [UInt8]
    public var hash: [UInt8]
    /// The typed payload `data` was made from, when this process appended the event (never read from the log).
    var typed: TypedPayload? = nil

    /// The position a global consumer checkpoints after processing this event.
    public var checkpoint: GlobalCheckpoint {
        GlobalCheckpoint(transactionId: transactionId, globalPosition: globalPosition)
    }

    /// `recordedAt` as a `Date` (microsecond precision).
    public var recordedDate: Date? { EventChain.date(fromCanonical: recordedAt) }

    /// The canonical bytes this event's hash covers (docs/event-store.md).
    public var canonicalBytes: [UInt8] {
        EventChain.canonicalBytes(
            orgId: orgId, orgSeq: orgSeq, streamId: streamId, streamVersion: streamVersion, eventId: eventId,
            eventType: eventType, schemaVersion: schemaVersion, recordedAt: recordedAt, data: data,
            metadata: metadataJSON)
    }

    /// Decodes the data as `Payload`, upcasting older schema versions; throws `.undecodablePayload`.
    public func decode<Payload: EventPayload>(_ type: Payload.Type) throws -> Payload {
        guard eventType == Payload.eventType else {
            throw EventStoreError.undecodablePayload(eventType: eventType, schemaVersion: schemaVersion,
                                                     reason: "the event is not a \(Payload.eventType)")
        }
        // Appended by this process: the payload it was made from, not a JSON round trip (10 % of a payment's CPU).
        if schemaVersion == Payload.schemaVersion, let payload = typed?.value as? Payload { return payload }
        do {
            let current = try Payload.upcast(data, from: schemaVersion)
            return try JSONDecoder().decode(Payload.self, from: Data(current.canonicalBytes))
        } catch let error as EventStoreError {
            throw error
        } catch {
            throw EventStoreError.undecodablePayload(eventType: eventType, schemaVersion: schemaVersion,
                                                     reason: String(describing: error))
        }
    }
}

extension RecordedEvent {
    /// The select list every read uses; `init(row:)` decodes it.
    static let columns = """
        org_id, org_seq, global_pos, tx_id, stream_id, stream_version, event_id, event_type, schema_version, \
        data::text AS data, metadata::text AS metadata, \
        to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at, prev_hash, hash
        """

    /// Decodes a row selected with `columns`; throws `.malformedRow` (or a JSON/metadata error).
    init(row: Row) throws {
        guard let orgId = UUID(canonicalText: try row.string("org_id")),
              let eventId = UUID(canonicalText: try row.string("event_id")),
              let transactionId = UInt64(try row.string("tx_id")),
              let previousHash = row.bytes("prev_hash"), let hash = row.bytes("hash") else {
            throw EventStoreError.malformedRow("org_id, event_id, tx_id or a hash does not decode")
        }
        let data: EventJSON
        let metadataJSON: EventJSON
        do {
            data = try EventJSON.parse(try row.string("data"))
            metadataJSON = try EventJSON.parse(try row.string("metadata"))
        } catch let error as EventJSON.ParseError {
            throw EventStoreError.malformedRow("data or metadata: \(error)")
        }
        guard let metadata = EventMetadata(json: metadataJSON) else {
            throw EventStoreError.undecodableMetadata(metadataJSON.canonicalText)
        }
        self.init(
            orgId: orgId, orgSeq: try row.int("org_seq"), globalPosition: try row.int("global_pos"),
            transactionId: transactionId, streamId: try row.string("stream_id"),
            streamVersion: try row.int("stream_version"), eventId: eventId, eventType: try row.string("event_type"),
            schemaVersion: try row.int("schema_version"), data: data, metadata: metadata,
            metadataJSON: metadataJSON, recordedAt: try row.string("recorded_at"), previousHash: previousHash,
            hash: hash)
    }
}
