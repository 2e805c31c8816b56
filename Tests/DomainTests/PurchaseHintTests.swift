import Domain
import Testing

/// A `purchase` event is a hint only with a `p.orderId` that is a payment id (issue 20, "Conversions").
@Suite struct PurchaseHintTests {
    @Test func aPurchaseWithAnOrderIdIsAHint() {
        #expect(PurchaseHint.orderId(eventName: "purchase", props: #"{"orderId":"GPA.1234-5678","value":4.99}"#)?
            .text == "GPA.1234-5678")
        #expect(PurchaseHint.orderId(eventName: "purchase", props: #"{"orderId":"2000000123456789"}"#)?.text
            == "2000000123456789")
    }

    @Test func otherEventsAndUnusableOrderIdsAreNoHint() {
        #expect(PurchaseHint.orderId(eventName: "app_open", props: #"{"orderId":"GPA.1"}"#) == nil)
        #expect(PurchaseHint.orderId(eventName: "Purchase", props: #"{"orderId":"GPA.1"}"#) == nil)
        #expect(PurchaseHint.orderId(eventName: "purchase", props: nil) == nil)
        #expect(PurchaseHint.orderId(eventName: "purchase", props: #"{"value":4.99}"#) == nil)
        #expect(PurchaseHint.orderId(eventName: "purchase", props: #"{"orderId":42}"#) == nil)
        #expect(PurchaseHint.orderId(eventName: "purchase", props: #"{"orderId":""}"#) == nil)
        #expect(PurchaseHint.orderId(eventName: "purchase", props: #"{"orderId":"order 7"}"#) == nil)
        #expect(PurchaseHint.orderId(eventName: "purchase",
                                     props: #"{"orderId":"\#(String(repeating: "a", count: 129))"}"#) == nil)
        #expect(PurchaseHint.orderId(eventName: "purchase", props: "[1]") == nil)
    }
}
