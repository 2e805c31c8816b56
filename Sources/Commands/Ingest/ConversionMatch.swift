import Domain
import EventStore
import Foundation
import Postgres

/// Joins a purchase hint and its confirmation by order id inside a transaction (migration 0035, docs/app-ingest.md
/// "Conversions"): each half is upserted into `app_conversions` (the first of each half wins), and the statement that
/// finds both halves in sets `converted_at` and appends `AppConversionConfirmed` in the same transaction. The upsert's
/// row lock orders two halves arriving at once, so exactly one of them completes the pair.
struct ConversionMatch {
    /// A `purchase` hint of a stored batch.
    struct Hint {
        var orderId: PaymentID
        var appId: AppID
        var installHash: String
        var sessionId: String
        /// The event's time, corrected by the batch's clock offset.
        var purchasedAt: Date
    }

    /// A payment that confirms an order.
    struct Confirmation {
        var orderId: PaymentID
        /// `apple`, `google`, `revenuecat` or `payment`.
        var source: String
        var amount: Int
        var currency: String
        var productId: String?
    }

    let org: UUID
    let projectId: String

    /// Records `hint` (unless the order has a hint already) and completes the conversion when it is confirmed.
    func hint(_ hint: Hint, metadata: EventMetadata, transaction: EventTransaction) throws {
        try complete(after: Statement("""
            INSERT INTO app_conversions (org_id, project_id, order_id, app_id, install_hash, session_id, hinted_at)
            VALUES ($1::uuid, $2::uuid, $3, $4::uuid, $5, $6, $7::timestamptz)
            ON CONFLICT (org_id, project_id, order_id) DO UPDATE SET
                app_id = excluded.app_id, install_hash = excluded.install_hash, session_id = excluded.session_id,
                hinted_at = excluded.hinted_at
            WHERE app_conversions.hinted_at IS NULL
            """, [orgValue, .text(projectId), .text(hint.orderId.text), .text(hint.appId.description),
                  .text(hint.installHash), .text(hint.sessionId), .text(RFC3339.format(hint.purchasedAt))],
            prepared: true), hint.orderId, metadata: metadata, transaction: transaction)
    }

    /// Records `confirmation` (unless the order is confirmed already) and completes the conversion when it was hinted.
    func confirm(_ confirmation: Confirmation, metadata: EventMetadata, transaction: EventTransaction) throws {
        try complete(after: Statement("""
            INSERT INTO app_conversions (org_id, project_id, order_id, source, amount, currency, product_id,
                                         confirmed_at)
            VALUES ($1::uuid, $2::uuid, $3, $4, $5::bigint, $6, $7, now())
            ON CONFLICT (org_id, project_id, order_id) DO UPDATE SET
                source = excluded.source, amount = excluded.amount, currency = excluded.currency,
                product_id = excluded.product_id, confirmed_at = excluded.confirmed_at
            WHERE app_conversions.confirmed_at IS NULL
            """, [orgValue, .text(projectId), .text(confirmation.orderId.text), .text(confirmation.source),
                  .int(confirmation.amount), .text(confirmation.currency), .optional(confirmation.productId)],
            prepared: true), confirmation.orderId, metadata: metadata, transaction: transaction)
    }

    /// Runs `upsert` (one half), then marks the order converted when both halves are in and it is not yet, and
    /// appends its event; the upsert and the marking go in one round trip.
    private func complete(after upsert: Statement, _ orderId: PaymentID, metadata: EventMetadata,
                          transaction: EventTransaction) throws {
        guard let row = try transaction.connection.pipeline([upsert, Statement("""
            UPDATE app_conversions SET converted_at = now(), day = (hinted_at AT TIME ZONE 'UTC')::date
            WHERE org_id = $1::uuid AND project_id = $2::uuid AND order_id = $3 AND converted_at IS NULL
                AND hinted_at IS NOT NULL AND confirmed_at IS NOT NULL
            RETURNING app_id::text AS app_id, install_hash, session_id, source, amount::text AS amount, currency,
                product_id,
                to_char(hinted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS hinted_at,
                to_char(confirmed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS confirmed_at
            """, [orgValue, .text(projectId), .text(orderId.text)], prepared: true)])[1].rows.first else { return }
        guard let amount = Int(try row.string("amount")) else {
            throw InconsistentState("a stored conversion amount does not read back")
        }
        let event = AppConversionConfirmed(
            appId: try row.string("app_id"), projectId: projectId, orderId: orderId.text,
            installHash: row["install_hash"], sessionId: row["session_id"],
            hintedAt: try row.string("hinted_at"), source: try row.string("source"), amount: amount,
            currency: try row.string("currency"), productId: row["product_id"],
            confirmedAt: try row.string("confirmed_at"))
        try transaction.append(org: org, stream: ConversionStreams.conversion(project: projectId, orderId: orderId),
                               expectedVersion: .noStream, events: [try NewEvent(event)], metadata: metadata)
    }

    private var orgValue: PostgresValue { .text(org.lowercasedText) }
}
