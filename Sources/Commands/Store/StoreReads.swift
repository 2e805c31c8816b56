import Domain
import Foundation
import Postgres

/// What a store notification's effect reads before it decides — the buyer the notification names and the payment
/// the effect is about (locked `FOR UPDATE`) — sent with the caller's own statements in one round trip
/// (`Connection.pipeline`; in a batch of commands, together with the command's savepoint and scope).
struct StoreReads {
    /// The buyer of the org the notification names, when Handoff knows it.
    var guid: String?
    /// The payment the effect is about, when it is recorded.
    var stored: StoreEntitlement.Stored?
    /// The results of the caller's `leading` statements, in order.
    var leading: [QueryResult]

    /// Runs `leading`, then the reads for `buyer` and for `effect`'s payment (none for nil) in `org`.
    static func run(leading: [Statement] = [], buyer: StoreIntake.BuyerReference, effect: StoreEffect?,
                    org: PostgresValue, on connection: Connection) throws -> StoreReads {
        let buyerRead = StoreBuyer.read(buyer, org: org)
        let paymentId = effect.flatMap(Self.paymentId)
        var statements = leading
        if let buyerRead { statements.append(buyerRead.statement) }
        if let paymentId {
            statements.append(Statement("""
                SELECT guid, extract(epoch FROM expires_at)::float8 AS expires_at,
                       refunded_at IS NOT NULL AS refunded
                FROM payments WHERE org_id = $1::uuid AND payment_id = $2 FOR UPDATE
                """, [org, .text(paymentId.text)], prepared: true))
        }
        var results = try connection.pipeline(statements)[...]
        let leadingResults = Array(results.prefix(leading.count))
        results = results.dropFirst(leading.count)
        var reads = StoreReads(guid: nil, stored: nil, leading: leadingResults)
        if let buyerRead, let result = results.popFirst() { reads.guid = buyerRead.buyer(result) }
        if paymentId != nil, let row = results.popFirst()?.rows.first {
            let expiresAt = row.isNull("expires_at") ? nil : Date(timeIntervalSince1970: try row.double("expires_at"))
            reads.stored = StoreEntitlement.Stored(guid: try row.string("guid"), expiresAt: expiresAt,
                                                   refunded: try row.string("refunded") == "t")
        }
        return reads
    }

    /// The payment `effect` is about; nil for a transfer (it reads its own) and for none.
    private static func paymentId(_ effect: StoreEffect) -> PaymentID? {
        switch effect {
        case .activate(let purchase): purchase.paymentId
        case .expire(let paymentId, _), .revoke(let paymentId, _): paymentId
        case .transfer, .none: nil
        }
    }
}
