import Domain
import Foundation

/// `revenuecat-webhook`: the bytes as the body of `POST /v1/m/store/revenuecat/{token}` (`RevenueCatWebhook.parse`)
/// and, when they parse, as the effect the event has (`effect(now:digest:)`).
///
/// Properties: a body parses or is refused as malformed (never unauthorized: the secret is checked before); a parsed
/// event has a non-empty `id` and `type` within `maxIdentifierLength`, id lists within `maxIds`; the buyer candidates
/// are distinct and come from the event's own ids; an activation names a valid payment id, a non-negative amount and
/// a three-letter currency; an expiry or refund names a valid payment id; a transfer's target is one of
/// `transferred_to`.
enum RevenueCatFuzz {
    static let target = FuzzTarget(name: "revenuecat-webhook", maxLength: 8192, run: run)
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func run(_ bytes: [UInt8]) {
        let hook: RevenueCatWebhook
        switch RevenueCatWebhook.parse(bytes) {
        case .success(let parsed): hook = parsed
        case .failure(.malformed): return
        case .failure(let other): return check(false, "refused as other than malformed: \(other)")
        }
        let event = hook.event
        let limit = RevenueCatWebhook.maxIdentifierLength
        check(!event.id.isEmpty && event.id.utf8.count <= limit, "accepted id '\(event.id)'")
        check(!event.type.isEmpty && event.type.utf8.count <= limit, "accepted type '\(event.type)'")
        for list in [event.aliases, event.transferredFrom, event.transferredTo, event.entitlementIds] {
            check((list?.count ?? 0) <= RevenueCatWebhook.maxIds, "accepted a list of \(list?.count ?? 0) ids")
        }
        let candidates = hook.buyerCandidates
        check(Set(candidates).count == candidates.count, "candidates repeat: \(candidates)")
        let own = Set([event.appUserId, event.originalAppUserId].compactMap { $0 } + (event.aliases ?? []))
        check(candidates.allSatisfy(own.contains), "a candidate that is not one of the event's ids: \(candidates)")
        let digest: (String) -> String = { _ in String(repeating: "0", count: 64) }
        switch hook.effect(now: now, digest: digest) {
        case .activate(let purchase):
            check((try? PaymentID.parse(purchase.paymentId.text).get()) != nil, "payment id \(purchase.paymentId)")
            check(purchase.amount >= 0, "negative amount \(purchase.amount)")
            check(purchase.currency.utf8.count == 3, "currency '\(purchase.currency)'")
            check(!purchase.productId.isEmpty, "an activation without a product")
        case .expire(let id, _), .revoke(let id, _):
            check((try? PaymentID.parse(id.text).get()) != nil, "payment id \(id)")
        case .transfer(let from, let to):
            check(!from.isEmpty && (event.transferredTo ?? []).contains(to), "transfer \(from) → \(to)")
        case .none:
            break
        }
    }
}
