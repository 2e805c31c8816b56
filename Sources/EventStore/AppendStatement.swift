import Domain
import Foundation
import Postgres

/// One command's events for one stream of one org, as `EventTransaction.append` and `EventLog.append` take them.
struct AppendCommand: Sendable {
    var org: UUID
    var stream: String
    var expectedVersion: ExpectedVersion
    var events: [NewEvent]
    var metadata: EventMetadata

    /// One command's append; throws `.nothingToAppend` for no events.
    init(org: UUID, stream: String, expectedVersion: ExpectedVersion, events: [NewEvent], metadata: EventMetadata)
        throws
    {
        guard !events.isEmpty else { throw EventStoreError.nothingToAppend }
        self.org = org
        self.stream = stream
        self.expectedVersion = expectedVersion
        self.events = events
        self.metadata = metadata
    }
}

/// The append as one statement: `SELECT … FROM event_append(…)` (migrations 0009, 0012) for one or more commands
/// of one or more orgs. Per org (in ascending order, so that concurrent statements cannot deadlock) it locks the
/// counter row, checks each command's expected version, inserts the events of the commands that pass with
/// consecutive `org_seq` and their hashes, and moves the counter row — one round trip for the whole batch. The
/// thirteen arguments travel as binary arrays (`PostgresArray`): nothing to escape here, no literal to parse there.
///
/// The hash is computed by Postgres from `EventChain.canonicalTemplate` pieces made here, so the canonical form has
/// one implementation (Swift) and Postgres only fills in `org_seq`, `recorded_at` and `stream_version`.
/// Outside BEGIN the statement is its own transaction; inside one it joins it.
enum AppendStatement {
    static let sql = """
        SELECT item, outcome, out_seq, out_version, out_global_pos, out_tx_id, out_recorded_at, out_prev_hash,
               out_hash
        FROM event_append($1::uuid[], $2::text[], $3::bigint[], $4::boolean[], $5::uuid[], $6::text[],
                          $7::integer[], $8::jsonb[], $9::jsonb[], $10::text[], $11::text[], $12::text[],
                          $13::text[])
        """

    /// Runs `commands` in one statement on `connection`; one result per command, in the order given: its events as
    /// recorded, or `.wrongExpectedVersion` when its stream was not at the expected version. Commands of one org
    /// keep their relative order.
    ///
    /// Throws what Postgres throws for the whole statement: a duplicate event id (`.duplicateEvent` when there is
    /// one command, else the `PostgresError`), a lost connection, a deadlock. Nothing of the statement is kept then.
    /// `scope`: set it in the same round trip, for a statement outside a transaction (nil inside a scoped one).
    /// Row-level security applies to `event_append`'s reads and writes (it runs with the caller's rights): an org
    /// outside the scope fails the whole statement.
    static func run(
        _ given: [AppendCommand], on connection: Connection, in scope: OrgScope? = nil
    ) throws -> [Result<[RecordedEvent], EventStoreError>] {
        // Postgres orders uuids by their bytes.
        let order = given.indices.sorted { left, right in
            let ordering = withUnsafeBytes(of: given[left].org.uuid) { leftBytes in
                withUnsafeBytes(of: given[right].org.uuid) { memcmp(leftBytes.baseAddress!, $0.baseAddress!, 16) }
            }
            return ordering != 0 ? ordering < 0 : left < right
        }
        let commands = order.map { given[$0] }
        var orgs = PostgresArray(.uuid), streams = PostgresArray(.text), expected = PostgresArray(.bigint)
        var chained = PostgresArray(.boolean), eventIds = PostgresArray(.uuid), types = PostgresArray(.text)
        var schemaVersions = PostgresArray(.integer), data = PostgresArray(.jsonb), metadata = PostgresArray(.jsonb)
        var heads = PostgresArray(.text), afterSeqs = PostgresArray(.text), afterTimes = PostgresArray(.text)
        var ends = PostgresArray(.text)
        var metadataTexts: [EventJSON] = []
        var eventCount = 0
        for command in commands {
            let metadataJSON = command.metadata.json
            let metadataText = metadataJSON.canonicalText
            metadataTexts.append(metadataJSON)
            for (offset, event) in command.events.enumerated() {
                guard Int32(exactly: event.schemaVersion) != nil else {
                    throw EventStoreError.invalidEventData(
                        "schema version \(event.schemaVersion) does not fit the schema_version column")
                }
                let dataText = event.data.canonicalText
                let template = EventChain.canonicalTemplate(
                    orgId: command.org, streamId: command.stream, eventId: event.eventId, eventType: event.eventType,
                    schemaVersion: event.schemaVersion, dataText: dataText, metadataText: metadataText)
                orgs.append(command.org)
                streams.append(command.stream)
                if let required = command.expectedVersion.required {
                    expected.append(required + offset)
                } else {
                    expected.appendNull()
                }
                chained.append(offset > 0)
                eventIds.append(event.eventId)
                types.append(event.eventType)
                schemaVersions.append(event.schemaVersion)
                data.append(dataText)
                metadata.append(metadataText)
                heads.append(template.head)
                afterSeqs.append(template.afterSeq)
                afterTimes.append(template.afterTime)
                ends.append(template.end)
                eventCount += 1
            }
        }
        let rows: [Row]
        do {
            let arguments = [orgs, streams, expected, chained, eventIds, types, schemaVersions, data, metadata, heads,
                             afterSeqs, afterTimes, ends]
            if let scope {
                rows = try connection.queryPrepared(sql, arguments.map(\.value), in: scope).rows
            } else {
                rows = try connection.queryPrepared(sql, arguments.map(\.value)).rows
            }
        } catch let error as PostgresError where error.kind == .uniqueViolation && commands.count == 1 {
            let command = commands[0]
            switch error.constraint {
            case "events_stream_version_key":
                throw EventStoreError.wrongExpectedVersion(stream: command.stream, expected: command.expectedVersion,
                                                           actual: nil)
            case "events_event_id_key":
                throw EventStoreError.duplicateEvent(eventIds: command.events.map(\.eventId))
            default:
                throw error
            }
        }
        guard rows.count == eventCount else {
            throw EventStoreError.malformedRow("event_append answered \(rows.count) rows for \(eventCount) events")
        }
        var results: [Result<[RecordedEvent], EventStoreError>] = []
        var index = 0
        for (number, command) in commands.enumerated() {
            let commandRows = rows[index..<(index + command.events.count)]
            index += command.events.count
            guard let first = commandRows.first, try first.string("outcome") == "appended" else {
                let actual = try commandRows.first?.optionalInt("out_version")
                results.append(.failure(.wrongExpectedVersion(stream: command.stream,
                                                              expected: command.expectedVersion, actual: actual)))
                continue
            }
            var recorded: [RecordedEvent] = []
            for (row, event) in zip(commandRows, command.events) {
                guard try row.string("outcome") == "appended", let previousHash = row.bytes("out_prev_hash"),
                      let hash = row.bytes("out_hash"), let transactionId = UInt64(try row.string("out_tx_id"))
                else { throw EventStoreError.malformedRow("event_append skipped an event of an appended command") }
                recorded.append(RecordedEvent(
                    orgId: command.org, orgSeq: try row.int("out_seq"), globalPosition: try row.int("out_global_pos"),
                    transactionId: transactionId, streamId: command.stream, streamVersion: try row.int("out_version"),
                    eventId: event.eventId, eventType: event.eventType, schemaVersion: event.schemaVersion,
                    data: event.data, metadata: command.metadata, metadataJSON: metadataTexts[number],
                    recordedAt: try row.string("out_recorded_at"), previousHash: previousHash, hash: hash,
                    typed: event.typed))
            }
            results.append(.success(recorded))
        }
        var inGivenOrder = results
        for (position, index) in order.enumerated() { inGivenOrder[index] = results[position] }
        return inGivenOrder
    }
}
