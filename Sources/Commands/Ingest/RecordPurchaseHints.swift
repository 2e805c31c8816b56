import Domain
import EventStore
import Foundation
import Postgres

/// Records the `purchase` hints of a stored batch (issue 20): each order id it names waits for a payment to confirm
/// it, or completes a conversion a payment confirmed first (`ConversionMatch`). One transaction per batch; a batch
/// without hints costs nothing.
public struct RecordPurchaseHints: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// The hints among `rows.events` (after blocked names were dropped): a `purchase` event whose `p.orderId` is a
    /// payment id. The first event of an order in the batch wins.
    public static func hints(_ rows: IngestRows) -> [(orderId: PaymentID, event: IngestRows.Event)] {
        var seen = Set<String>()
        return rows.events.compactMap { event in
            guard let orderId = PurchaseHint.orderId(eventName: event.name, props: event.props),
                  seen.insert(orderId.text).inserted else { return nil }
            return (orderId, event)
        }
    }

    /// Records the hints of `rows`, a batch that was stored; answers how many it named.
    @discardableResult
    public func run(_ rows: IngestRows, metadata: EventMetadata) throws -> Int {
        let hints = Self.hints(rows)
        guard !hints.isEmpty else { return 0 }
        let match = ConversionMatch(org: rows.orgId.uuid, projectId: rows.projectId.description)
        try log.transact(in: .org(rows.orgId.uuid), maxAttempts: 8) { transaction in
            for (orderId, event) in hints {
                try match.hint(ConversionMatch.Hint(orderId: orderId, appId: rows.appId, installHash: rows.installHash,
                                                    sessionId: event.sessionId, purchasedAt: event.occurredAt),
                               metadata: metadata, transaction: transaction)
            }
        }
        return hints.count
    }
}
