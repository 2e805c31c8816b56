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

    /// What goes before the first record: the CSV header row, nothing for JSONL.
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
                event.orgId.uuidString.lowercased(), String(event.orgSeq), String(event.globalPosition),
                String(event.transactionId), event.streamId, String(event.streamVersion),
                event.eventId.uuidString.lowercased(), event.eventType, String(event.schemaVersion), event.recordedAt,
                event.data.canonicalText, event.metadataJSON.canonicalText, Hex.encode(event.previousHash),
                Hex.encode(event.hash),
            ]
            return Array((fields.map(csvField).joined(separator: ",") + "\r\n").utf8)
        }
    }

    /// The JSONL object of one event (its keys sorted by the canonical form).
    public static func json(_ event: RecordedEvent) -> EventJSON {
        .object([
            "org_id": .string(event.orgId.uuidString.lowercased()),
            "org_seq": .integer(Int64(event.orgSeq)),
            "global_pos": .integer(Int64(event.globalPosition)),
            "tx_id": .integer(Int64(clamping: event.transactionId)),
            "stream_id": .string(event.streamId),
            "stream_version": .integer(Int64(event.streamVersion)),
            "event_id": .string(event.eventId.uuidString.lowercased()),
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

    /// Writes `org`'s events from `fromSeq` on, in `org_seq` order, through `write`, a page at a time.
    ///
    /// Reads inside one REPEATABLE READ, READ ONLY transaction (one snapshot: the export ends at the last event
    /// committed when it started); memory is bounded by `pageSize`. `connection` must not be inside a transaction;
    /// SELECT privilege is enough, as a role that row-level security does not limit (the owner; the application
    /// role would see nothing). `progress(written, total)` runs after every page. Returns the number of events.
    @discardableResult
    public static func export(
        org: UUID, fromSeq: Int = 1, format: AuditExportFormat, on connection: Connection, pageSize: Int = 1000,
        write: ([UInt8]) throws -> Void, progress: (_ written: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> Int {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let last = try connection.query(
                "SELECT coalesce(max(last_seq), 0)::bigint AS last FROM event_orgs WHERE org_id = $1::uuid",
                [.text(org.uuidString)]).rows[0].int("last")
            let total = max(0, last - max(1, fromSeq) + 1)
            try write(header(format))
            var next = max(1, fromSeq)
            var written = 0
            progress(0, total)
            while true {
                let events = try EventReader.readHistory(org: org, fromSeq: next, limit: max(1, pageSize),
                                                         on: connection)
                var chunk: [UInt8] = []
                chunk.reserveCapacity(events.count * 512)
                for event in events { chunk += record(event, format: format) }
                if !chunk.isEmpty { try write(chunk) }
                written += events.count
                progress(written, max(total, written))
                guard events.count == max(1, pageSize), let lastRead = events.last?.orgSeq else { break }
                next = lastRead + 1
            }
            try connection.execute("COMMIT")
            return written
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
