import Domain
import EventStore
import Foundation
import Postgres

/// Builds timelines (`GET /s2s/v1/users/{guid}/timeline`, `GET /s2s/v1/payments/{paymentId}/timeline`,
/// `handoff admin buyer timeline`) from the event log of one organization.
///
/// A buyer's facts are the org's events that name the guid (`guid`; `fromGuid`/`toGuid` of a store transfer; `guids`
/// of a skipped recovery mail), that name one of its payments (`paymentId`), and the recovery requests for one of its
/// e-mail addresses (lookup hash or reference); read in one transaction under the org's scope, so another
/// organization's guid or payment is simply not found. The events are found through partial indexes on the names
/// they carry (migration 0041, `buyer_event_seqs`), not by scanning the org's log.
public struct BuyerTimelines: Sendable {
    /// The most events one timeline reads (the oldest first).
    public static let maxEvents = 2000

    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// The timeline of `guid` in `org` at `now`; nil when `org` has no such buyer.
    public func buyer(_ guid: BuyerGuid, org: OrgID, now: Date) throws -> Timeline? {
        try log.read(in: .org(org.uuid)) { connection in
            guard let project = try homeProject(of: guid.description, org: org, on: connection) else { return nil }
            let (entries, truncated) = try facts(of: guid.description, org: org, on: connection)
            let verdict = HandoffVerdict.judge(entries.map(\.fact), project: project, now: now)
            return Timeline(guid: guid.description, paymentId: nil, verdict: verdict, entries: entries,
                            truncated: truncated)
        }
    }

    /// The timeline of payment `paymentId` in `org` at `now`: its facts and its buyer's buyer-wide ones; nil when
    /// `org` has no such payment.
    public func payment(_ paymentId: PaymentID, org: OrgID, now: Date) throws -> Timeline? {
        try log.read(in: .org(org.uuid)) { connection in
            guard let row = try connection.queryPrepared("""
                SELECT guid, project_id::text AS project_id FROM payments WHERE org_id = $1::uuid AND payment_id = $2
                """, [.text(org.description), .text(paymentId.text)]).rows.first else { return nil }
            let guid = try row.string("guid")
            let project = try projectFacts(try row.string("project_id"), org: org, on: connection)
            let (all, truncated) = try facts(of: guid, org: org, on: connection)
            let entries = all.filter { $0.fact.paymentId == nil || $0.fact.paymentId == paymentId.text }
            let verdict = HandoffVerdict.judge(entries.map(\.fact), project: project, now: now)
            return Timeline(guid: guid, paymentId: paymentId.text, verdict: verdict, entries: entries,
                            truncated: truncated)
        }
    }

    /// The events of a buyer (`$2`) in an org (`$1`), oldest first, at most `$3`: their positions from
    /// `buyer_event_seqs` (migration 0041: one branch per name an event can carry, each answered by its own index,
    /// docs/diagnostics.md "Cost in a large organization"), the events themselves read by primary key under the
    /// caller's scope. The read touches the buyer's events, not the rest of the org's log.
    static let factsSQL = """
        SELECT e.org_seq, e.event_type, e.data::text AS data,
            to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at
        FROM buyer_event_seqs($1::uuid, $2::text, $3::integer) AS s
        JOIN events e ON e.org_id = $1::uuid AND e.org_seq = s.seq
        ORDER BY e.org_seq
        """

    /// The buyer's facts, oldest first, and whether there were more events than `maxEvents`.
    func facts(of guid: String, org: OrgID, on connection: Connection) throws -> ([Timeline.Entry], Bool) {
        let rows = try connection.queryPrepared(Self.factsSQL,
                                                [.text(org.description), .text(guid), .int(Self.maxEvents + 1)]).rows
        var entries: [Timeline.Entry] = []
        for row in rows.prefix(Self.maxEvents) {
            guard case .success(let at) = PaymentFields.rfc3339(try row.string("recorded_at")) else { continue }
            let type = try row.string("event_type")
            guard let fact = DiagnosticFact(eventType: type, data: try EventJSON.parse(try row.string("data")), at: at,
                                            guid: guid) else { continue }
            entries.append(Timeline.Entry(fact: fact, event: type, orgSeq: try row.int("org_seq")))
        }
        let aligned = DiagnosticFact.onServiceClock(entries.map(\.fact))
        for index in entries.indices { entries[index].fact = aligned[index] }
        // Log order (commit order) stays: it is the true order even where an instant is from another clock.
        return (entries, rows.count > Self.maxEvents)
    }

    /// The facts of the buyer's home project, or nil when `org` has no such buyer.
    private func homeProject(of guid: String, org: OrgID, on connection: Connection) throws
        -> HandoffVerdict.ProjectFacts?
    {
        guard let row = try connection.queryPrepared(
            "SELECT project_id::text AS project_id FROM buyers WHERE org_id = $1::uuid AND guid = $2",
            [.text(org.description), .text(guid)]).rows.first else { return nil }
        return try projectFacts(try row.string("project_id"), org: org, on: connection)
    }

    /// What the verdict needs of a project's settings.
    func projectFacts(_ project: String, org: OrgID, on connection: Connection) throws
        -> HandoffVerdict.ProjectFacts
    {
        guard let row = try connection.queryPrepared("""
            SELECT fingerprint, tracker, tracker_link FROM projects WHERE org_id = $1::uuid AND project_id = $2::uuid
            """, [.text(org.description), .text(project)]).rows.first else {
            return HandoffVerdict.ProjectFacts(fingerprint: false, trackerLinkMissingAdjT: false)
        }
        var missingAdjT = false
        if let tracker = ProjectSettings.Tracker(rawValue: try row.string("tracker")), tracker == .adjust,
           let link = row["tracker_link"],
           case .failure(let refusal) = TrackerLink.parse(link, tracker: tracker, field: "trackerLink") {
            missingAdjT = refusal.code == MachineCode.trackerLinkAdjTRequired
        }
        return HandoffVerdict.ProjectFacts(fingerprint: try row.bool("fingerprint"),
                                           trackerLinkMissingAdjT: missingAdjT)
    }
}
