/// Who the buyer on the paywall is (`GET /public/paywall/buyer`), decided from the query alone (issue 4).
///
/// The rule, exactly: `origin=app` with a non-empty `id` → that id, even when a pass is present; otherwise a
/// pass → its guid once verified; an `id` without `origin=app` is ignored; nothing usable → not found.
/// `origin` is compared exactly (`App` is not `app`). An empty `pass` parameter counts as no pass.
/// The caller still refuses a guid of another organization (`VISITOR_ID_FOREIGN_PROJECT`) — for an id and for a
/// pass's guid alike — after this decision, since that needs a lookup.
public enum PaywallBuyerRule {
    /// Decides the buyer from the query's `origin` and `id` and the verification of its `pass` (nil when absent).
    ///
    /// An `id` that wins but is not a well-formed guid is refused (400 `VALIDATION_GUID_FORMAT` naming `id`) rather
    /// than silently falling back to the pass: the app said who the buyer is, and it is wrong.
    public static func decide(origin: String?, id: String?, passResult: PassVerification?) -> PaywallBuyerDecision {
        if origin == "app", let id, !id.isEmpty {
            switch BuyerGuid.parse(id, field: "id") {
            case .success(let guid): return .buyer(guid, source: .id)
            case .failure(let refusal): return .refused(refusal)
            }
        }
        if case .valid(let claims) = passResult { return .buyer(claims.guid, source: .pass) }
        return .notFound
    }
}

/// What `PaywallBuyerRule` decided.
public enum PaywallBuyerDecision: Hashable, Sendable {
    /// The buyer, and which parameter named it (`"source":"id"|"pass"`).
    case buyer(BuyerGuid, source: PaywallBuyerSource)
    /// Nothing usable: no id from the app and no valid pass (absent, tampered, expired, unknown key, malformed).
    case notFound
    /// The app's `id` is not a well-formed guid.
    case refused(FieldRefusal)
}

/// Which query parameter named the paywall's buyer; the raw value is the answer's `source`.
public enum PaywallBuyerSource: String, Hashable, Sendable {
    /// `origin=app` with `id`.
    case id
    /// A verified `pass`.
    case pass
}
