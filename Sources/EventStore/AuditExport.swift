import Crypto
import Domain
import Foundation
import Postgres

/// The file formats of `handoff audit export` (docs/audit.md).
public enum AuditExportFormat: String, Sendable, CaseIterable {
    /// One canonical JSON object per line (`\n`-terminated).
    case jsonl
    /// RFC 4180 CSV with a header row; JSON columns hold canonical JSON text.
    case csv
}

/// Streams an org's history, with each event's hashes, as JSONL or CSV (the library behind `handoff audit export`).
///
/// Every field an independent verifier needs is in each record: the ten fields the hash covers, plus `global_pos`,
/// `tx_id`, `prev_hash` and `hash` (lowercase hex). docs/audit.md specifies the formats and the chain.
public enum AuditExport {
    /// The CSV columns, in order.
    public static let csvColumns = [
        "org_id", "org_seq", "global_pos", "tx_id", "stream_id", "stream_version", "event_id", "event_type",
        "schema_version", "recorded_at", "data", "metadata", "prev_hash", "hash",
    ]

    /// What goes before the first record in the data file: the CSV column row; nothing for JSONL, whose header line
    /// (`AuditExportManifest.headerLine`) `export` writes.
    public static func header(_ format: AuditExportFormat) -> [UInt8] {
        switch format {
        case .jsonl: return []
        case .csv: return Array((csvColumns.joined(separator: ",") + "\r\n").utf8)
        }
    }

    /// One record, terminator included.
    public static func record(_ event: RecordedEvent, format: AuditExportFormat) -> [UInt8] {
        switch format {
        case .jsonl:
            return json(event).canonicalBytes + [UInt8(ascii: "\n")]
        case .csv:
            let fields = [
                event.orgId.lowercasedText, String(event.orgSeq), String(event.globalPosition),
                String(event.transactionId), event.streamId, String(event.streamVersion),
                event.eventId.lowercasedText, event.eventType, String(event.schemaVersion), event.recordedAt,
                event.data.canonicalText, event.metadataJSON.canonicalText, Hex.encode(event.previousHash),
                Hex.encode(event.hash),
            ]
            return Array((fields.map(csvField).joined(separator: ",") + "\r\n").utf8)
        }
    }

    /// The JSONL object of one event (its keys sorted by the canonical form).
    public static func json(_ event: RecordedEvent) -> EventJSON {
        .object([
            "org_id": .string(event.orgId.lowercasedText),
            "org_seq": .integer(Int64(event.orgSeq)),
            "global_pos": .integer(Int64(event.globalPosition)),
            "tx_id": .integer(Int64(clamping: event.transactionId)),
            "stream_id": .string(event.streamId),
            "stream_version": .integer(Int64(event.streamVersion)),
            "event_id": .string(event.eventId.lowercasedText),
            "event_type": .string(event.eventType),
            "schema_version": .integer(Int64(event.schemaVersion)),
            "recorded_at": .string(event.recordedAt),
            "data": event.data,
            "metadata": event.metadataJSON,
            "prev_hash": .string(Hex.encode(event.previousHash)),
            "hash": .string(Hex.encode(event.hash)),
        ])
    }

    /// A CSV field: quoted (with `"` doubled) when it holds a comma, quote, CR, LF, or starts with `{`/`[`.
    static func csvField(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || text.hasPrefix("{") || text.hasPrefix("[")
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Why an export was not written.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// `--from-seq` is past `lastSeq` + 1: there is no event to link the export's first line to.
        case fromSeqBeyondHistory(fromSeq: Int, lastSeq: Int)

        public var description: String {
            switch self {
            case .fromSeqBeyondHistory(let fromSeq, let lastSeq):
                "--from-seq \(fromSeq) is beyond the org's history (its last org_seq is \(lastSeq); at most "
                    + "\(lastSeq + 1), which exports nothing new)"
            }
        }
    }

    /// Writes `org`'s events from `fromSeq` on, in `org_seq` order, through `write`, a page at a time; returns the
    /// export's header and trailer (`AuditExportManifest`).
    ///
    /// JSONL: the header line, one line per event, the trailer line. CSV: the column row and one row per event; the
    /// header and trailer go to the `--manifest` file, which the caller writes from the answer. Reads inside one
    /// REPEATABLE READ, READ ONLY transaction (one snapshot: the export ends at the last event committed when it
    /// started, and the trailer's head is the latest signed head of that snapshot); memory is bounded by
    /// `pageSize`. `connection` must not be inside a transaction; SELECT privilege is enough: the transaction is
    /// scoped to `org` (`OrgScope`), so the application role reads the org's rows too (a replica's connection,
    /// `DATABASE_READ_URL`), and the owner is not limited by row-level security at all. `fromSeq` may be at most the
    /// last `org_seq` + 1 (else `Refusal.fromSeqBeyondHistory`). `progress(written, total)` runs after every page.
    @discardableResult
    public static func export(
        org: UUID, fromSeq: Int = 1, format: AuditExportFormat, on connection: Connection, pageSize: Int = 1000,
        write: ([UInt8]) throws -> Void, progress: (_ written: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> AuditExportManifest {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let orgText = org.lowercasedText
            let scope = OrgScope.org(org).statement
            _ = try connection.query(scope.sql, scope.parameters)
            let last = try connection.query(
                "SELECT coalesce(max(last_seq), 0)::bigint AS last FROM event_orgs WHERE org_id = $1::uuid",
                [.text(orgText)]).rows[0].int("last")
            let first = max(1, fromSeq)
            guard first <= last + 1 else { throw Refusal.fromSeqBeyondHistory(fromSeq: first, lastSeq: last) }
            let previousHash = try first == 1 ? EventChain.genesisHash : hash(org: org, orgSeq: first - 1,
                                                                              on: connection)
            let total = last - first + 1
            var end = (seq: first - 1, hash: previousHash, count: 0)
            var next = first
            // JSONL opens with the header line (which the trailer does not change), CSV with its column row.
            let opening = format == .csv ? header(.csv) : AuditExportManifest(
                org: org, fromSeq: first, previousHash: previousHash, count: 0, lastSeq: first - 1,
                lastHash: previousHash, head: nil).headerLine
            progress(0, total)
            while true {
                let events = try EventReader.readHistory(org: org, fromSeq: next, limit: max(1, pageSize),
                                                         on: connection)
                var chunk: [UInt8] = next == first ? opening : []
                chunk.reserveCapacity(chunk.count + events.count * 512)
                for event in events { chunk += record(event, format: format) }
                if !chunk.isEmpty { try write(chunk) }
                if let lastRead = events.last { end = (lastRead.orgSeq, lastRead.hash, end.count + events.count) }
                progress(end.count, max(total, end.count))
                guard events.count == max(1, pageSize) else { break }
                next = end.seq + 1
            }
            let head = try ChainHeadStore.latest(org: org, atOrBefore: end.seq, on: connection)
            let manifest = AuditExportManifest(org: org, fromSeq: first, previousHash: previousHash, count: end.count,
                                               lastSeq: end.seq, lastHash: end.hash, head: head)
            if format == .jsonl { try write(manifest.trailerLine) }
            try connection.execute("COMMIT")
            return manifest
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// The stored hash of `org`'s event at `orgSeq` (the link of a `--from-seq` export's first event).
    private static func hash(org: UUID, orgSeq: Int, on connection: Connection) throws -> [UInt8] {
        guard let hash = try connection.query(
            "SELECT hash FROM events WHERE org_id = $1::uuid AND org_seq = $2::bigint",
            [.text(org.lowercasedText), .int(orgSeq)]).first?.bytes("hash") else {
            throw EventStoreError.malformedRow("org_seq \(orgSeq) is missing: run handoff audit verify")
        }
        return hash
    }
}
