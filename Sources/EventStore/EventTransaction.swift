import Foundation
import Postgres

/// One open transaction in which a command reads state and appends events; handed out by `EventStore.transact`.
///
/// Use it from the thread that received it, only while the `transact` body runs. Several appends to streams of
/// one org in one transaction are fine; appends to several orgs in one transaction lock several counter rows and can
/// deadlock (Postgres then aborts one, which `transact` retries) — prefer one org per command.
public struct EventTransaction {
    /// The transaction's connection, for the decider's own reads and for inline writes.
    public let connection: Connection
    let projections: [any InlineProjection]

    /// Wraps a connection that is inside `BEGIN` (read committed); `projections` run for every appended event.
    public init(connection: Connection, projections: [any InlineProjection] = []) {
        self.connection = connection
        self.projections = projections
    }

    /// The stream's current version (0 when it has no events).
    public func streamVersion(org: UUID, stream: String) throws -> Int {
        try EventReader.streamVersion(org: org, stream: stream, on: connection)
    }

    /// The events of one stream, in order.
    public func readStream(
        org: UUID, stream: String, fromVersion: Int = 1, limit: Int = 1000
    ) throws -> [RecordedEvent] {
        try EventReader.readStream(org: org, stream: stream, fromVersion: fromVersion, limit: limit, on: connection)
    }

    /// Appends `events` to `stream` in this transaction and runs the inline projections on them.
    ///
    /// 1. locks the org's counter row (creating it at `last_seq` 0 for a new org) — after the decider's reads;
    /// 2. gives the events `org_seq` last+1…, `stream_version` expected+1… (or, for `.any`, the version read under
    ///    the lock +1…), the database time as `recorded_at`, and chains their hashes from the counter's `last_hash`;
    /// 3. inserts them — the first insert only if the stream is still at the expected version, the last one together
    ///    with the counter row's update — and runs the projections.
    /// A one-event append with an expected version is 2 statements inside the caller's BEGIN … COMMIT.
    /// Nothing is visible until the transaction commits; a rollback also undoes the counter, so no hole is left.
    /// Throws `.wrongExpectedVersion` (also when a racer wins the unique constraint), `.duplicateEvent`,
    /// `.nothingToAppend`. After a thrown Postgres error the transaction is aborted: roll it back.
    @discardableResult
    public func append(
        org: UUID, stream: String, expectedVersion: ExpectedVersion, events: [NewEvent], metadata: EventMetadata
    ) throws -> [RecordedEvent] {
        guard !events.isEmpty else { throw EventStoreError.nothingToAppend }
        let orgText = org.uuidString.lowercased()
        var counter = try lockCounter(org: orgText)
        // Under the org lock no other append to this org can commit before us, so a version read now is final.
        let streamVersion = try expectedVersion.required ?? self.streamVersion(org: org, stream: stream)

        let metadataJSON = metadata.json
        let metadataText = metadataJSON.canonicalText
        var recorded: [RecordedEvent] = []
        recorded.reserveCapacity(events.count)
        do {
            for (offset, event) in events.enumerated() {
                var next = RecordedEvent(
                    orgId: org, orgSeq: counter.lastSeq + 1, globalPosition: 0, transactionId: 0, streamId: stream,
                    streamVersion: streamVersion + offset + 1, eventId: event.eventId, eventType: event.eventType,
                    schemaVersion: event.schemaVersion, data: event.data, metadata: metadata,
                    metadataJSON: metadataJSON, recordedAt: counter.now, previousHash: counter.lastHash, hash: [])
                next.hash = EventChain.hash(previous: counter.lastHash, canonical: next.canonicalBytes)
                let isFirst = offset == 0
                let isLast = offset == events.count - 1
                let rows = try connection.queryPrepared(
                    Self.insertStatement(guardVersion: isFirst, moveCounter: isLast),
                    [.text(orgText), .int(next.orgSeq), .text(stream), .int(next.streamVersion),
                     .text(event.eventId.uuidString.lowercased()), .text(event.eventType),
                     .int(event.schemaVersion), .text(event.data.canonicalText), .text(metadataText),
                     .text(counter.now), .bytea(next.previousHash), .bytea(next.hash)]).rows
                guard let row = rows.first else {
                    // The guard refused: the stream is not at the version the caller expected.
                    let actual = try self.streamVersion(org: org, stream: stream)
                    throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expectedVersion, actual: actual)
                }
                next.globalPosition = try row.int("global_pos")
                guard let transactionId = UInt64(try row.string("tx_id")) else {
                    throw EventStoreError.malformedRow("tx_id is not a number")
                }
                next.transactionId = transactionId
                counter.lastSeq = next.orgSeq
                counter.lastHash = next.hash
                recorded.append(next)
            }
        } catch let error as PostgresError where error.kind == .uniqueViolation {
            switch error.constraint {
            case "events_stream_version_key":
                throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expectedVersion, actual: nil)
            case "events_event_id_key":
                throw EventStoreError.duplicateEvent(eventIds: events.map(\.eventId))
            default:
                throw error
            }
        }

        for event in recorded {
            for projection in projections {
                try projection.apply(event, on: connection, tables: .live)
            }
        }
        return recorded
    }

    /// The INSERT of one event. `guardVersion`: insert only if the stream's version is still `$4 - 1` (the caller's
    /// expectation), else return no row. `moveCounter`: also set the org's counter row to this event (`$2`, `$12`).
    static func insertStatement(guardVersion: Bool, moveCounter: Bool) -> String {
        let values = """
            SELECT $1::uuid, $2::bigint, $3, $4::bigint, $5::uuid, $6, $7::integer, $8::jsonb, $9::jsonb,
                   $10::timestamptz, $11::bytea, $12::bytea
            """
        let guarded = guardVersion
            ? values + """

                WHERE (SELECT coalesce(max(stream_version), 0) FROM events
                       WHERE org_id = $1::uuid AND stream_id = $3) = $4::bigint - 1
                """
            : values
        let insert = """
            INSERT INTO events (org_id, org_seq, stream_id, stream_version, event_id, event_type,
                                schema_version, data, metadata, recorded_at, prev_hash, hash)
            \(guarded)
            RETURNING global_pos, tx_id
            """
        guard moveCounter else { return insert }
        return """
            WITH inserted AS (\(insert)),
            moved AS (
                UPDATE event_orgs SET last_seq = $2::bigint, last_hash = $12::bytea
                WHERE org_id = $1::uuid AND EXISTS (SELECT 1 FROM inserted)
            )
            SELECT global_pos, tx_id FROM inserted
            """
    }

    /// The org's counter row, locked until the transaction ends, and the database clock read after the lock.
    private func lockCounter(org: String) throws -> (lastSeq: Int, lastHash: [UInt8], now: String) {
        let lock = """
            SELECT last_seq, last_hash,
                   to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now
            FROM event_orgs WHERE org_id = $1::uuid FOR UPDATE
            """
        var row = try connection.queryPrepared(lock, [.text(org)]).first
        if row == nil {
            try connection.queryPrepared(
                "INSERT INTO event_orgs (org_id, last_seq, last_hash) VALUES ($1::uuid, 0, $2) ON CONFLICT DO NOTHING",
                [.text(org), .bytea(EventChain.genesisHash)])
            row = try connection.queryPrepared(lock, [.text(org)]).first
        }
        guard let row, let lastHash = row.bytes("last_hash") else {
            throw EventStoreError.malformedRow("the counter row of org \(org) could not be read")
        }
        return (try row.int("last_seq"), lastHash, try row.string("now"))
    }
}
