import Foundation

/// A `purchase` event of a batch read as a hint of a conversion (issue 20): the order it names, which a store
/// notification, RevenueCat or `POST /s2s/v1/payments` must confirm before the conversion counts.
///
/// The order id is the event's `p.orderId`, a string that is a valid payment id (`PaymentID`: 1–128 characters of
/// `A–Z a–z 0–9 . _ : -`), because a confirmation names its order by the payment id it records: the App Store original
/// transaction id (a first purchase's transaction id), the Google Play order id (`GPA.…`), RevenueCat's
/// `original_transaction_id`, or the tenant's `paymentId`. A `purchase` without one is kept as an event, not a hint.
public enum PurchaseHint {
    /// The event name that carries a hint.
    public static let eventName = "purchase"

    /// The order id a `purchase` event's properties `props` (JSON text) name, or nil when it names none usable.
    public static func orderId(eventName: String, props: String?) -> PaymentID? {
        guard eventName == Self.eventName, let props,
              let object = try? JSONSerialization.jsonObject(with: Data(props.utf8)) as? [String: Any],
              let text = object["orderId"] as? String,
              case .success(let id) = PaymentID.parse(text)
        else { return nil }
        return id
    }
}
