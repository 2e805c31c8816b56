import Foundation

/// Where an org's history stops verifying: the org, the first bad `org_seq`, and why.
public struct ChainBreak: Sendable, Equatable, CustomStringConvertible {
    /// What failed at `orgSeq`.
    public enum Reason: Sendable, Equatable {
        /// The history skips or repeats: `orgSeq` was expected, the next row held `found`.
        case gap(found: Int)
        /// `prev_hash` is not the previous event's `hash` (or 32 zero bytes for `org_seq` 1).
        case previousHashMismatch
        /// `hash` is not SHA-256(prev_hash ‖ canonical bytes): the row was altered after it was written.
        case hashMismatch
        /// The row's data or metadata could not be read back (not event JSON).
        case unreadable(String)
        /// A value `event_append` never writes (`field` says which): an empty stream id or event type, a schema or
        /// stream version below 1 — a row inserted around `event_append`, even with a correct hash.
        case invalidValue(field: String)
        /// The counter row says `last_seq` = `counterSeq` but the history ends at `orgSeq` (or has no counter row:
        /// `counterSeq` nil).
        case counterSequenceMismatch(counterSeq: Int?)
        /// The counter row's `last_hash` is not the hash of the last event (`orgSeq`).
        case counterHashMismatch
    }

    public var org: UUID
    public var orgSeq: Int
    public var reason: Reason

    public init(org: UUID, orgSeq: Int, reason: Reason) {
        self.org = org
        self.orgSeq = orgSeq
        self.reason = reason
    }

    public var description: String {
        "org \(org.lowercasedText) breaks at org_seq \(orgSeq): \(reason)"
    }
}
