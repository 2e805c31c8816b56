import Domain
import EventStore
import Foundation
import Postgres

/// Folds payment events into `payments` and `handoff_codes` (migrations `0007_payments.sql`, `0008_redemption.sql`):
/// minted codes become rows, `HandoffCodeRedeemed` marks its row spent; store effects (`PaymentRenewed`,
/// `PaymentExpired`, `PaymentTransferred`) move a payment's expiry or buyer.
///
/// `payments` has PK (org_id, payment_id): a concurrent second recording of one payment fails its insert here, which
/// is what makes `POST /s2s/v1/payments` idempotent under concurrency. `handoff_codes` holds lookup hashes and
/// sealed codes only.
public struct PaymentProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["payments", "handoff_codes"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let org = PostgresValue.text(event.orgId.lowercasedText)
        switch event.eventType {
        case PaymentRecorded.eventType:
            let paid = try event.decode(PaymentRecorded.self)
            connection.queueWrite("""
                INSERT INTO \(tables["payments"]) (org_id, payment_id, guid, project_id, amount, currency, product_id,
                    entitlement, expires_at, paywall_id, body_hash, recorded_at)
                VALUES ($1::uuid, $2, $3, $4::uuid, $5::bigint, $6, $7, $8, $9::timestamptz, $10, $11,
                    $12::timestamptz)
                """, [org, .text(paid.paymentId), .text(paid.guid), .text(paid.projectId), .text(String(paid.amount)),
                      .text(paid.currency), .text(paid.productId), .text(paid.entitlement), .optional(paid.expiresAt),
                      .optional(paid.paywallId), .text(paid.bodyHash), .text(event.recordedAt)])
        case HandoffCodeMinted.eventType:
            let minted = try event.decode(HandoffCodeMinted.self)
            let emailHash = try LookupRefs.resolve(hash: minted.emailHash, ref: minted.emailRef, org: event.orgId,
                                                   on: connection)
            connection.queueWrite("""
                INSERT INTO \(tables["handoff_codes"]) (code_hash, org_id, guid, payment_id, kind, expires_at,
                    sealed_code, created_at, source, email_hash)
                VALUES ($1, $2::uuid, $3, $4, $5, $6::timestamptz, $7, $8::timestamptz, $9, $10)
                """, [.text(minted.codeHash), org, .text(minted.guid), .text(minted.paymentId), .text(minted.kind),
                      .text(minted.expiresAt), .text(minted.sealedCode.text), .text(event.recordedAt),
                      .text(minted.source ?? "payment"), .optional(emailHash)])
        case HandoffCodeRedeemed.eventType:
            let redeemed = try event.decode(HandoffCodeRedeemed.self)
            connection.queueWrite("""
                UPDATE \(tables["handoff_codes"]) SET redeemed_at = $2::timestamptz
                WHERE code_hash = $1 AND redeemed_at IS NULL
                """, [.text(redeemed.codeHash), .text(redeemed.redeemedAt)])
        case PaymentRefunded.eventType:
            let refunded = try event.decode(PaymentRefunded.self)
            connection.queueWrite("""
                UPDATE \(tables["payments"]) SET refunded_at = $3::timestamptz
                WHERE org_id = $1::uuid AND payment_id = $2 AND refunded_at IS NULL
                """, [org, .text(refunded.paymentId), .text(refunded.refundedAt)])
        case PaymentRenewed.eventType:
            let renewed = try event.decode(PaymentRenewed.self)
            connection.queueWrite("""
                UPDATE \(tables["payments"]) SET expires_at = $3::timestamptz
                WHERE org_id = $1::uuid AND payment_id = $2
                """, [org, .text(renewed.paymentId), .text(renewed.expiresAt)])
        case PaymentExpired.eventType:
            let expired = try event.decode(PaymentExpired.self)
            connection.queueWrite("""
                UPDATE \(tables["payments"]) SET expires_at = $3::timestamptz
                WHERE org_id = $1::uuid AND payment_id = $2
                """, [org, .text(expired.paymentId), .text(expired.expiredAt)])
        case PaymentTransferred.eventType:
            let moved = try event.decode(PaymentTransferred.self)
            connection.queueWrite("""
                UPDATE \(tables["payments"]) SET guid = $3 WHERE org_id = $1::uuid AND payment_id = $2
                """, [org, .text(moved.paymentId), .text(moved.toGuid)])
        default:
            return
        }
    }
}
