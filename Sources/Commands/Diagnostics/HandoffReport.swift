import Domain
import EventStore
import Foundation
import Postgres

/// The handoff report of one project (`GET /s2s/v1/reports/handoff`): its payments recorded in [from, to), judged
/// with their buyers' timelines (`BuyerTimelines`), summed by `HandoffFunnel`, with one page of the unidentified.
public struct HandoffReport: Sendable {
    /// The most payments one report reads (the oldest first); `truncated` says when there were more.
    public static let maxPayments = 5000

    /// Which payments and which page of the unidentified.
    public struct Query: Sendable, Equatable {
        public var from: Date?
        public var to: Date?
        public var offset: Int
        public var limit: Int
        /// When set, only payments recorded in the last this many seconds by the database's clock (the dashboard).
        public var recentSeconds: Double?

        public init(from: Date?, to: Date?, offset: Int, limit: Int, recentSeconds: Double? = nil) {
            self.from = from
            self.to = to
            self.offset = offset
            self.limit = limit
            self.recentSeconds = recentSeconds
        }
    }

    public var project: ProjectID
    public var query: Query
    public var funnel: HandoffFunnel
    public var truncated: Bool

    /// Reads and judges the payments of `project` (in `org`) at `now`. `pool`, when given, is a replica's
    /// (`ReadRouting`); the log's otherwise.
    public static func read(_ query: Query, project: ProjectID, org: OrgID, log: EventLog, now: Date,
                            from pool: Pool? = nil) throws -> HandoffReport
    {
        let timelines = BuyerTimelines(log: log)
        return try log.read(in: .org(org.uuid), from: pool ?? log.pool) { connection in
            let rows = try connection.queryPrepared("""
                SELECT payment_id, guid FROM payments
                WHERE org_id = $1::uuid AND project_id = $2::uuid
                    AND ($3::text IS NULL OR recorded_at >= $3::timestamptz)
                    AND ($4::text IS NULL OR recorded_at < $4::timestamptz)
                    AND ($6::float8 IS NULL OR recorded_at >= now() - make_interval(secs => $6::float8))
                ORDER BY recorded_at, payment_id LIMIT $5
                """, [.text(org.description), .text(project.description),
                      .optional(query.from.map(PaymentFields.text)), .optional(query.to.map(PaymentFields.text)),
                      .int(maxPayments + 1), query.recentSeconds.map(PostgresValue.double) ?? .null]).rows
            let projectFacts = try timelines.projectFacts(project.description, org: org, on: connection)
            var buyers: [String: [DiagnosticFact]] = [:]
            var payments: [HandoffFunnel.Payment] = []
            for row in rows.prefix(maxPayments) {
                let paymentId = try row.string("payment_id")
                let guid = try row.string("guid")
                let facts = try buyers[guid] ?? timelines.facts(of: guid, org: org, on: connection).0.map(\.fact)
                buyers[guid] = facts
                let own = facts.filter { $0.paymentId == paymentId }
                let paidAt = own.first { if case .paymentRecorded = $0.kind { true } else { false } }?.at ?? now
                let refusals = own.compactMap { fact -> FingerprintRefusal? in
                    if case .fingerprintRefused(let refusal) = fact.kind { return refusal }
                    return nil
                }
                var verdict = HandoffVerdict.judge(facts, project: projectFacts, now: now)
                if case .identified(let path, let at) = verdict {
                    verdict = .identified(path: path, at: max(at, paidAt))
                }
                if case .notIdentified = verdict {
                    // The reason of this payment: its own facts and the buyer-wide ones.
                    verdict = HandoffVerdict.judge(facts.filter { $0.paymentId == nil || $0.paymentId == paymentId },
                                                   project: projectFacts, now: now)
                }
                payments.append(HandoffFunnel.Payment(paymentId: paymentId, guid: guid, paidAt: paidAt,
                                                      verdict: verdict, refusals: refusals))
            }
            return HandoffReport(project: project, query: query, funnel: HandoffFunnel(payments),
                                 truncated: rows.count > maxPayments)
        }
    }

    /// The report as canonical JSON (docs/diagnostics.md "Handoff report").
    public var json: EventJSON {
        let int = { (value: Int) in EventJSON.integer(Int64(value)) }
        var identified: [String: EventJSON] = [:]
        for horizon in HandoffFunnel.horizons {
            let count = funnel.identified[horizon.name] ?? 0
            identified[horizon.name] = .object(["count": int(count),
                                                "shareBasisPoints": int(funnel.basisPoints(count))])
        }
        var byPath: [String: EventJSON] = [:]
        for path in IdentificationPath.allCases {
            byPath[path.rawValue] = .object((funnel.byPath[path] ?? [:]).mapValues(int))
        }
        let page = funnel.unidentified.dropFirst(query.offset).prefix(query.limit)
        let next = query.offset + page.count < funnel.unidentified.count ? int(query.offset + page.count) : .null
        let items: [EventJSON] = page.map { payment in
            var verdict = EventJSON.null
            if case .notIdentified(let reason) = payment.verdict {
                verdict = .object(["reason": .string(reason.code), "text": .string(payment.verdict.words)])
            }
            return .object(["paymentId": .string(payment.paymentId), "guid": .string(payment.guid),
                            "paidAt": .string(PaymentFields.text(payment.paidAt)), "verdict": verdict])
        }
        return .object([
            "projectId": .string(project.description),
            "from": query.from.map { .string(PaymentFields.text($0)) } ?? .null,
            "to": query.to.map { .string(PaymentFields.text($0)) } ?? .null,
            "payments": int(funnel.payments), "identified": .object(identified), "byPath": .object(byPath),
            "medianSecondsToIdentification": funnel.medianSecondsToIdentification.map(int) ?? .null,
            "fingerprintRefusals": .object(funnel.fingerprintRefusals.mapValues(int)),
            "unidentified": .object(["items": .array(items), "nextOffset": next,
                                     "total": int(funnel.unidentified.count)]),
            "truncated": .bool(truncated),
        ])
    }
}
