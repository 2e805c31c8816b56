import Crypto
import Domain
import Foundation

/// The first and last lines of a JSONL export (and the two lines of a CSV export's `--manifest` file): what makes an
/// export self-describing (issue 16 §2, docs/audit.md "Header and trailer").
///
/// Header: `{"format_version":2,"from_seq":N,"kind":"header","org_id":…,"partial":N>1,"prev_hash":…}` — `prev_hash`
/// is the hash the first exported event links to (32 zero bytes from `org_seq` 1). Trailer:
/// `{"count":…,"head":…|null,"kind":"trailer","last_hash":…,"last_org_seq":…}` — the last event written (or, when
/// none was, `from_seq` − 1 and the header's `prev_hash`) and the org's latest signed head at or before it.
public struct AuditExportManifest: Sendable, Equatable {
    /// The version of the export format: 1 had no header or trailer; 2 has them.
    public static let formatVersion = 2

    public var header: EventJSON
    public var trailer: EventJSON

    public init(org: UUID, fromSeq: Int, previousHash: [UInt8], count: Int, lastSeq: Int, lastHash: [UInt8],
                head: ChainHead?) {
        header = .object([
            "kind": .string("header"), "format_version": .integer(Int64(Self.formatVersion)),
            "org_id": .string(org.lowercasedText), "from_seq": .integer(Int64(fromSeq)),
            "prev_hash": .string(Hex.encode(previousHash)), "partial": .bool(fromSeq > 1),
        ])
        trailer = .object([
            "kind": .string("trailer"), "count": .integer(Int64(count)), "last_org_seq": .integer(Int64(lastSeq)),
            "last_hash": .string(Hex.encode(lastHash)), "head": head?.json ?? .null,
        ])
    }

    /// The header line of a JSONL export (canonical JSON and `\n`).
    public var headerLine: [UInt8] { header.canonicalBytes + [0x0A] }
    /// The trailer line of a JSONL export (canonical JSON and `\n`).
    public var trailerLine: [UInt8] { trailer.canonicalBytes + [0x0A] }
    /// A CSV export's `--manifest` file: the header line, then the trailer line.
    public var fileBytes: [UInt8] { headerLine + trailerLine }
}
