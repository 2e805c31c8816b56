import Foundation
import Postgres

/// One command's events for one stream of one org, as `EventTransaction.append` and `EventStore.append` take them.
struct AppendCommand: Sendable {
    var org: UUID
    var stream: String
    var expectedVersion: ExpectedVersion
    var events: [NewEvent]
    var metadata: EventMetadata
}

/// The append as one statement: `SELECT … FROM event_append(…)` (migrations 0009, 0012) for one or more commands of one
/// or more orgs. Per org (in ascending order, so that concurrent statements cannot deadlock) it locks the counter
/// row, checks each command's expected version, inserts the events of the commands that pass with consecutive
/// `org_seq` and their hashes, and moves the counter row — one round trip for the whole batch.
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
    static func run(
        _ given: [AppendCommand], on connection: Connection
    ) throws -> [Result<[RecordedEvent], EventStoreError>] {
        // Each org's text once: ascending text order is Postgres's uuid order (bytewise).
        let orgTexts = given.map { EventChain.text(of: $0.org) }
        let order = given.indices.sorted { left, right in
            orgTexts[left] != orgTexts[right] ? orgTexts[left] < orgTexts[right] : left < right
        }
        let commands = order.map { given[$0] }
        var orgs: [String?] = []
        var streams: [String?] = [], expected: [String?] = [], chained: [String?] = [], eventIds: [String?] = []
        var types: [String?] = [], schemaVersions: [String?] = [], data: [String?] = [], metadata: [String?] = []
        var heads: [String?] = [], afterSeqs: [String?] = [], afterTimes: [String?] = [], ends: [String?] = []
        var metadataTexts: [EventJSON] = []
        for (command, position) in zip(commands, order) {
            let metadataJSON = command.metadata.json
            let metadataText = metadataJSON.canonicalText
            metadataTexts.append(metadataJSON)
            let orgText = orgTexts[position]
            for (offset, event) in command.events.enumerated() {
                let dataText = event.data.canonicalText
                let template = EventChain.canonicalTemplate(
                    orgId: command.org, streamId: command.stream, eventId: event.eventId, eventType: event.eventType,
                    schemaVersion: event.schemaVersion, dataText: dataText, metadataText: metadataText)
                orgs.append(orgText)
                streams.append(command.stream)
                expected.append(command.expectedVersion.required.map { String($0 + offset) })
                chained.append(offset > 0 ? "t" : "f")
                eventIds.append(EventChain.text(of: event.eventId))
                types.append(event.eventType)
                schemaVersions.append(String(event.schemaVersion))
                data.append(dataText)
                metadata.append(metadataText)
                heads.append(template.head)
                afterSeqs.append(template.afterSeq)
                afterTimes.append(template.afterTime)
                ends.append(template.end)
            }
        }
        let rows: [Row]
        do {
            rows = try connection.queryPrepared(sql, [
                array(orgs), array(streams), array(expected), array(chained), array(eventIds), array(types),
                array(schemaVersions), array(data), array(metadata), array(heads), array(afterSeqs),
                array(afterTimes), array(ends),
            ]).rows
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
        guard rows.count == streams.count else {
            throw EventStoreError.malformedRow("event_append answered \(rows.count) rows for \(streams.count) events")
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
                    recordedAt: try row.string("out_recorded_at"), previousHash: previousHash, hash: hash))
            }
            results.append(.success(recorded))
        }
        var inGivenOrder = results
        for (position, index) in order.enumerated() { inGivenOrder[index] = results[position] }
        return inGivenOrder
    }

    /// A Postgres array literal of text elements (`NULL` for nil), each quoted with `\` and `"` escaped, which the
    /// server casts to the parameter's array type. Built in one buffer of the final size, copying the runs between
    /// escaped bytes whole.
    static func array(_ elements: [String?]) -> PostgresValue {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.reduce(2) { $0 + ($1?.utf8.count ?? 4) * 2 + 3 })
        bytes.append(UInt8(ascii: "{"))
        for (position, element) in elements.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            guard var element else {
                bytes.append(contentsOf: "NULL".utf8)
                continue
            }
            bytes.append(quote)
            element.withUTF8 { utf8 in
                var start = 0
                for index in utf8.indices where utf8[index] == quote || utf8[index] == backslash {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    bytes.append(backslash)
                    start = index
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            }
            bytes.append(quote)
        }
        bytes.append(UInt8(ascii: "}"))
        return .text(String(decoding: bytes, as: UTF8.self))
    }
}
