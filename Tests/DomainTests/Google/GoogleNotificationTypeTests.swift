import Domain
import Testing

/// The number → name tables of Google's RTDN reference.
struct GoogleNotificationTypeTests {
    @Test func everyDocumentedSubscriptionTypeHasGooglesName() {
        let expected: [(SubscriptionNotificationType, Int, String)] = [
            (.recovered, 1, "SUBSCRIPTION_RECOVERED"), (.renewed, 2, "SUBSCRIPTION_RENEWED"),
            (.canceled, 3, "SUBSCRIPTION_CANCELED"), (.purchased, 4, "SUBSCRIPTION_PURCHASED"),
            (.onHold, 5, "SUBSCRIPTION_ON_HOLD"), (.inGracePeriod, 6, "SUBSCRIPTION_IN_GRACE_PERIOD"),
            (.restarted, 7, "SUBSCRIPTION_RESTARTED"),
            (.priceChangeConfirmed, 8, "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED"),
            (.deferred, 9, "SUBSCRIPTION_DEFERRED"), (.paused, 10, "SUBSCRIPTION_PAUSED"),
            (.pauseScheduleChanged, 11, "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED"),
            (.revoked, 12, "SUBSCRIPTION_REVOKED"), (.expired, 13, "SUBSCRIPTION_EXPIRED"),
            (.itemsChanged, 17, "SUBSCRIPTION_ITEMS_CHANGED"),
            (.cancellationScheduled, 18, "SUBSCRIPTION_CANCELLATION_SCHEDULED"),
            (.priceChangeUpdated, 19, "SUBSCRIPTION_PRICE_CHANGE_UPDATED"),
            (.pendingPurchaseCanceled, 20, "SUBSCRIPTION_PENDING_PURCHASE_CANCELED"),
            (.priceStepUpConsentUpdated, 22, "SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED"),
        ]
        for (type, number, name) in expected {
            #expect(type.rawValue == number)
            #expect(type.name == name)
        }
        #expect(SubscriptionNotificationType.names.count == expected.count)
    }

    @Test func numbersOutsideTheTablesAreNamedByTheirNumber() {
        #expect(SubscriptionNotificationType(rawValue: 14).name == "14")
        #expect(OneTimeProductNotificationType(rawValue: 3).name == "3")
        #expect(VoidedPurchaseProductType(rawValue: 0).name == "0")
        #expect(VoidedPurchaseRefundType(rawValue: 9).name == "9")
    }

    @Test func oneTimeProductProductAndRefundTypesHaveGooglesNames() {
        #expect(OneTimeProductNotificationType.purchased.name == "ONE_TIME_PRODUCT_PURCHASED")
        #expect(OneTimeProductNotificationType.canceled.name == "ONE_TIME_PRODUCT_CANCELED")
        #expect(VoidedPurchaseProductType.subscription.name == "PRODUCT_TYPE_SUBSCRIPTION")
        #expect(VoidedPurchaseProductType.oneTime.name == "PRODUCT_TYPE_ONE_TIME")
        #expect(VoidedPurchaseRefundType.fullRefund.name == "REFUND_TYPE_FULL_REFUND")
        #expect(VoidedPurchaseRefundType.quantityBasedPartialRefund.name
            == "REFUND_TYPE_QUANTITY_BASED_PARTIAL_REFUND")
    }
}
