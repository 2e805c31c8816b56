import Commands
import EventStore
import Foundation
import Postgres

/// The `checkpoint` worker role (issue 16 §1, docs/audit.md "Signed chain heads"): signs the head of every org whose
/// history moved, at most once per `interval` seconds per org (`CHECKPOINT_INTERVAL_SECONDS`), into `chain_heads`,
/// and queues the head's delivery to the org's auditor URL when it has one (`AuditorForwardJob`).
///
/// One pass (`signDue`) asks `chain_heads_due` which orgs are due, then signs each in a transaction of its own,
/// scoped to that org: under a transaction-level advisory lock of the org (another checkpoint process skips it),
/// it reads where the history ends, checks again that it moved past the latest head and that the latest head is at
/// least `interval` old, signs, inserts the head and — in the same transaction — the forward job. So any number of
/// processes may run the role: a head is signed once per `org_seq` and, barring clocks that disagree, once per
/// interval per org.
public final class Checkpoint: Sendable {
    /// Orgs looked at per pass; a pass that signs this many is followed by another at once.
    public static let batch = 100
    private let pool: Pool
    private let signer: ChainHeadSigner
    private let interval: Double
    private let clock: @Sendable () -> Date

    /// `pool` is the application role's; `interval` in seconds; `clock` gives `signed_at` (tests move their own).
    public init(pool: Pool, signer: ChainHeadSigner, interval: Double,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.pool = pool
        self.signer = signer
        self.interval = interval
        self.clock = clock
    }

    /// How long the loop sleeps when nothing was due: a tenth of the interval, between 0.2 s and 5 s.
    public var idleInterval: Double { min(5, max(0.2, interval / 10)) }

    /// Signs the due orgs (up to `batch`); returns how many heads it signed.
    @discardableResult
    public func signDue() throws -> Int {
        let now = clock()
        let orgs = try pool.withConnection { connection in
            try ChainHeadStore.registerKey(signer.key.publicKey, now: now, on: connection)
            return try ChainHeadStore.due(before: now.addingTimeInterval(-interval), limit: Self.batch,
                                          on: connection)
        }
        var signed = 0
        for org in orgs where try sign(org: org, now: now) != nil { signed += 1 }
        return signed
    }

    /// Signs `org`'s head if it is due; returns the head, or nil when it was not due (or another process holds it).
    @discardableResult
    public func sign(org: UUID, now: Date) throws -> ChainHead? {
        try pool.transaction(opening: OrgScope.org(org).statement) { connection in
            guard try ChainHeadStore.tryLock(org: org, on: connection),
                  let end = try ChainHeadStore.end(org: org, on: connection) else { return nil }
            if let latest = try ChainHeadStore.latest(org: org, on: connection) {
                guard end.orgSeq > latest.orgSeq, let signedAt = EventChain.date(fromCanonical: latest.signedAt),
                      signedAt <= now.addingTimeInterval(-interval) else { return nil }
            }
            let head = signer.sign(org: org, orgSeq: end.orgSeq, hash: end.hash, recordedAt: end.recordedAt,
                                   signedAt: now)
            guard try ChainHeadStore.insert(head, on: connection) else { return nil }
            if try AuditorLookup.url(org: org, on: connection) != nil {
                try JobStore.insert(AuditorForwardJob.job(head, signer: signer), now: now, on: connection)
            }
            return head
        }
    }
}
