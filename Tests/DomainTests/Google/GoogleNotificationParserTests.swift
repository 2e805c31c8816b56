import Domain
import Foundation
import Testing

/// Pub/Sub push bodies of Google Play's Real-time developer notifications: each kind, and every refusal.
struct GoogleNotificationParserTests {
    private typealias Bodies = GooglePushBodies

    private func parse(_ body: [UInt8]) -> Result<PubSubPush, GoogleIntakeFailure> {
        GoogleNotificationParser.parse(body: body)
    }

    private func notification(_ kind: String) -> DeveloperNotification? {
        try? parse(Bodies.push(Bodies.notification(kind))).get().notification
    }

    private func refusal(_ body: [UInt8]) -> String? {
        guard case .failure(.malformed(let message)) = parse(body) else { return nil }
        return message
    }

    private func refusal(notification: String) -> String? {
        refusal(Bodies.push(notification))
    }

    @Test func aSubscriptionNotificationIsReadWithTheEnvelope() throws {
        let push = try parse(Bodies.push(Bodies.notification(Bodies.subscription))).get()
        #expect(push.subscription == "projects/handoff-test/subscriptions/play-rtdn")
        #expect(push.message.messageId == "136969346945")
        #expect(push.message.publishTime == "2025-06-15T12:00:00.123Z")
        #expect(push.message.attributes == [:])
        #expect(push.message.data == Array(Bodies.notification(Bodies.subscription).utf8))
        #expect(push.notification == DeveloperNotification(
            version: "1.0", packageName: "com.example.app", eventTimeMillis: 1_750_000_000_123,
            kind: .subscription(SubscriptionNotification(
                version: "1.0", notificationType: .purchased, purchaseToken: "token-abc.123_XYZ",
                subscriptionId: "monthly001"))))
        #expect(push.notification.kindName == "subscriptionNotification")
        #expect(push.notification.typeName == "SUBSCRIPTION_PURCHASED")
        #expect(push.notification.purchaseToken == "token-abc.123_XYZ")
    }

    @Test func googlesDocumentedExampleIsRead() throws {
        let data = """
            {"version":"1.0","packageName":"com.some.thing","eventTimeMillis":"503349566168",\
            "subscriptionNotification":{"version":"1.0","notificationType":4,"purchaseToken":"PURCHASE_TOKEN",\
            "subscriptionId":"my.sku"}}
            """
        let notification = try parse(Bodies.push(data)).get().notification
        #expect(notification.packageName == "com.some.thing")
        #expect(notification.eventTimeMillis == 503_349_566_168)
        #expect(notification.typeName == "SUBSCRIPTION_PURCHASED")
    }

    @Test func aSubscriptionNotificationWithoutSubscriptionIdIsRead() {
        let kind = """
            "subscriptionNotification":{"version":"1.0","notificationType":12,"purchaseToken":"t"}
            """
        #expect(notification(kind)?.kind == .subscription(SubscriptionNotification(
            version: "1.0", notificationType: .revoked, purchaseToken: "t", subscriptionId: nil)))
    }

    @Test func aOneTimeProductNotificationIsRead() {
        let notification = notification(Bodies.oneTimeProduct)
        #expect(notification?.kind == .oneTimeProduct(OneTimeProductNotification(
            version: "1.0", notificationType: .purchased, purchaseToken: "token-otp", sku: "coins_100")))
        #expect(notification?.kindName == "oneTimeProductNotification")
        #expect(notification?.typeName == "ONE_TIME_PRODUCT_PURCHASED")
    }

    @Test func aVoidedPurchaseNotificationIsReadWithAndWithoutRefundType() {
        let notification = notification(Bodies.voided)
        #expect(notification?.kind == .voidedPurchase(VoidedPurchaseNotification(
            purchaseToken: "token-void", orderId: "GPA.1234-5678-9012-34567", productType: .subscription,
            refundType: .fullRefund)))
        #expect(notification?.kindName == "voidedPurchaseNotification")
        #expect(notification?.typeName == "REFUND_TYPE_FULL_REFUND")
        #expect(notification?.purchaseToken == "token-void")
        let older = """
            "voidedPurchaseNotification":{"purchaseToken":"t","orderId":"GPA.1","productType":2}
            """
        #expect(self.notification(older)?.kind == .voidedPurchase(VoidedPurchaseNotification(
            purchaseToken: "t", orderId: "GPA.1", productType: .oneTime, refundType: nil)))
    }

    @Test func aTestNotificationIsRead() {
        let notification = notification(Bodies.test)
        #expect(notification?.kind == .test(TestNotification(version: "1.0")))
        #expect(notification?.kindName == "testNotification")
        #expect(notification?.typeName == nil)
        #expect(notification?.purchaseToken == nil)
    }

    @Test func aNotificationOfAKindGoogleAddedLaterIsReadAsUnrecognized() {
        #expect(notification("")?.kind == .unrecognized)
        #expect(notification(#""pendingRefundReviewNotification":{"purchaseToken":"t"}"#)?.kind == .unrecognized)
        #expect(notification(#""subscriptionNotification":null"#)?.kind == .unrecognized)
        #expect(notification("")?.kindName == "unrecognized")
    }

    @Test func aTypeNumberGoogleAddedLaterIsKeptAndNamedByItsNumber() {
        let kind = """
            "subscriptionNotification":{"version":"1.0","notificationType":99,"purchaseToken":"t"}
            """
        #expect(notification(kind)?.typeName == "99")
    }

    @Test func eventTimeMillisIsTakenAsAStringOrANumber() throws {
        let number = Bodies.notification(Bodies.test, eventTimeMillis: "1750000000123")
        #expect(try parse(Bodies.push(number)).get().notification.eventTimeMillis == 1_750_000_000_123)
        let zero = Bodies.notification(Bodies.test, eventTimeMillis: "\"0\"")
        #expect(try parse(Bodies.push(zero)).get().notification.eventTimeMillis == 0)
    }

    @Test func eventTimeMillisThatIsNotAWholeNumberInRangeIsRefused() {
        let rule = "field 'message.data.eventTimeMillis' must be a whole number of milliseconds from 0 to "
            + "253402300799999 (a string or a number)"
        for value in ["\"-1\"", "\"12a\"", "\"\"", "\" 1\"", "-1", "253402300800000", "\"1e3\""] {
            let notification = Bodies.notification(Bodies.test, eventTimeMillis: value)
            #expect(refusal(notification: notification) == rule, "\(value)")
        }
        #expect(refusal(notification: Bodies.notification(Bodies.test, eventTimeMillis: "1.5")) == rule)
        #expect(refusal(notification: Bodies.notification(Bodies.test, eventTimeMillis: "true")) == rule)
        #expect(refusal(notification: Bodies.notification(Bodies.test, eventTimeMillis: "null"))
            == "field 'message.data.eventTimeMillis' must not be null")
    }

    @Test func attributesArePassedThrough() throws {
        let body = Bodies.push(Bodies.notification(Bodies.test), attributes: #"{"origin":"play","n":""}"#)
        #expect(try parse(body).get().message.attributes == ["origin": "play", "n": ""])
    }

    @Test func dataWithoutPaddingIsTaken() throws {
        let notification = Bodies.notification(Bodies.test) + " "
        #expect(notification.utf8.count % 3 != 0)
        let data = Data(notification.utf8).base64EncodedString()
        let unpadded = data.replacingOccurrences(of: "=", with: "")
        #expect(unpadded != data)
        #expect(try parse(Bodies.push(rawData: unpadded)).get().notification.kind == .test(TestNotification(
            version: "1.0")))
    }

    @Test func aBodyThatIsNotAJSONObjectIsMalformed() {
        #expect(refusal([]) == "the body is not valid JSON")
        #expect(refusal(Array("{".utf8)) == "the body is not valid JSON")
        #expect(refusal(Array("[]".utf8)) == "the body must be a JSON object")
        #expect(refusal(Array("null".utf8)) == "the body must be a JSON object")
        #expect(refusal(Array("\"x\"".utf8)) == "the body must be a JSON object")
    }

    @Test func missingEnvelopeFieldsAreNamed() {
        #expect(refusal(Array(#"{"subscription":"s"}"#.utf8)) == "field 'message' is required")
        #expect(refusal(Array(#"{"message":{"data":"e30="}}"#.utf8)) == "field 'message.messageId' is required")
        #expect(refusal(Array(#"{"message":{"messageId":"1"},"subscription":"s"}"#.utf8))
            == "field 'message.data' is required")
        #expect(refusal(Array(#"{"message":{"messageId":"1","data":"e30="}}"#.utf8))
            == "field 'subscription' is required")
    }

    @Test func envelopeFieldsOfTheWrongTypeOrShapeAreNamedWithoutTheirValues() {
        #expect(refusal(Array(#"{"message":[],"subscription":"s"}"#.utf8)) == "field 'message' must be an object")
        #expect(refusal(Array(#"{"message":{"messageId":7,"data":""},"subscription":"s"}"#.utf8))
            == "field 'message.messageId' must be a string")
        #expect(refusal(Bodies.push(Bodies.notification(Bodies.test), messageId: "secret value"))
            == "field 'message.messageId' must be 1 to 256 printable ASCII characters without spaces")
        #expect(refusal(Bodies.push(Bodies.notification(Bodies.test), messageId: String(repeating: "1", count: 257)))
            == "field 'message.messageId' must be 1 to 256 printable ASCII characters without spaces")
        #expect(refusal(Array(#"{"message":{"messageId":"1","data":"e30="},"subscription":""}"#.utf8))
            == "field 'subscription' must be 1 to 512 printable ASCII characters without spaces")
    }

    @Test func attributesOverPubSubsLimitsAreRefused() {
        let rule = "field 'message.attributes' must have at most 100 entries, keys of 1 to 256 bytes and values of "
            + "at most 1024 bytes"
        let many = "{" + (0...100).map { "\"k\($0)\":\"v\"" }.joined(separator: ",") + "}"
        #expect(refusal(Bodies.push(Bodies.notification(Bodies.test), attributes: many)) == rule)
        let long = "{\"k\":\"\(String(repeating: "v", count: 1025))\"}"
        #expect(refusal(Bodies.push(Bodies.notification(Bodies.test), attributes: long)) == rule)
        #expect(refusal(Bodies.push(Bodies.notification(Bodies.test), attributes: #"{"":"v"}"#)) == rule)
        #expect(refusal(Bodies.push(Bodies.notification(Bodies.test), attributes: #"{"k":1}"#))
            == "field 'message.attributes.k' must be a string")
    }

    @Test func dataThatIsNotBase64OfAJSONObjectIsMalformed() {
        #expect(refusal(Bodies.push(rawData: "not base64!")) == "field 'message.data' must be base64 text")
        #expect(refusal(Bodies.push(rawData: "e30-")) == "field 'message.data' must be base64 text")
        #expect(refusal(Bodies.push(rawData: "e3=0")) == "field 'message.data' must be base64 text")
        #expect(refusal(Bodies.push(rawData: "e31=")) == "field 'message.data' must be base64 text")
        #expect(refusal(Bodies.push(rawData: "e30==")) == "field 'message.data' must be base64 text")
        #expect(refusal(Bodies.push(rawData: "e")) == "field 'message.data' must be base64 text")
        #expect(refusal(Bodies.push(rawData: "")) == "field 'message.data' does not hold valid JSON")
        #expect(refusal(Bodies.push("not json")) == "field 'message.data' does not hold valid JSON")
        #expect(refusal(Bodies.push("[1]")) == "field 'message.data' must hold a JSON object")
    }

    @Test func missingNotificationFieldsAreNamed() {
        #expect(refusal(notification: #"{"packageName":"com.example.app","eventTimeMillis":"1"}"#)
            == "field 'message.data.version' is required")
        #expect(refusal(notification: #"{"version":"1.0","eventTimeMillis":"1"}"#)
            == "field 'message.data.packageName' is required")
        #expect(refusal(notification: #"{"version":"1.0","packageName":"com.example.app"}"#)
            == "field 'message.data.eventTimeMillis' is required")
        #expect(refusal(notification: Bodies.notification(#""subscriptionNotification":{"version":"1.0","#
            + #""notificationType":1}"#)) == "field 'message.data.subscriptionNotification.purchaseToken' is required")
        #expect(refusal(notification: Bodies.notification(#""oneTimeProductNotification":{"version":"1.0","#
            + #""notificationType":1,"purchaseToken":"t"}"#))
            == "field 'message.data.oneTimeProductNotification.sku' is required")
        #expect(refusal(notification: Bodies.notification(#""voidedPurchaseNotification":{"purchaseToken":"t","#
            + #""productType":1}"#)) == "field 'message.data.voidedPurchaseNotification.orderId' is required")
        #expect(refusal(notification: Bodies.notification(#""testNotification":{}"#))
            == "field 'message.data.testNotification.version' is required")
    }

    @Test func aPackageNameThatIsNotOneIsRefusedWithoutRepeatingIt() {
        let message = refusal(notification: Bodies.notification(Bodies.test, packageName: "not a package"))
        #expect(message == "field 'message.data.packageName' must be an Android package name: two or more "
            + "'.'-separated segments, each a letter followed by letters, digits or '_'")
        #expect(message?.contains("not a package") == false)
    }

    @Test func notificationFieldsOfTheWrongTypeOrRangeAreNamed() {
        #expect(refusal(notification: Bodies.notification(#""subscriptionNotification":{"version":"1.0","#
            + #""notificationType":"4","purchaseToken":"t"}"#))
            == "field 'message.data.subscriptionNotification.notificationType' must be a whole number from 0 to "
            + "2147483647")
        #expect(refusal(notification: Bodies.notification(#""subscriptionNotification":{"version":"1.0","#
            + #""notificationType":4.5,"purchaseToken":"t"}"#))
            == "field 'message.data.subscriptionNotification.notificationType' must be a whole number from 0 to "
            + "2147483647")
        #expect(refusal(notification: Bodies.notification(#""subscriptionNotification":{"version":"1.0","#
            + #""notificationType":-1,"purchaseToken":"t"}"#))
            == "field 'message.data.subscriptionNotification.notificationType' must be a whole number from 0 to "
            + "2147483647")
        #expect(refusal(notification: Bodies.notification(#""subscriptionNotification":{"version":"1.0","#
            + #""notificationType":4,"purchaseToken":"a b"}"#))
            == "field 'message.data.subscriptionNotification.purchaseToken' must be 1 to 4096 printable ASCII "
            + "characters without spaces")
        #expect(refusal(notification: Bodies.notification(#""voidedPurchaseNotification":{"purchaseToken":"t","#
            + #""orderId":"o","productType":1,"refundType":true}"#))
            == "field 'message.data.voidedPurchaseNotification.refundType' must be a whole number from 0 to "
            + "2147483647")
        #expect(refusal(notification: Bodies.notification(#""testNotification":[]"#))
            == "field 'message.data.testNotification' must be an object")
    }

    @Test func aNotificationOfTwoKindsIsMalformed() {
        #expect(refusal(notification: Bodies.notification(Bodies.subscription + "," + Bodies.test))
            == "field 'message.data' must hold only one of subscriptionNotification, oneTimeProductNotification, "
            + "voidedPurchaseNotification and testNotification")
    }

    @Test func aBodyOverTheLimitIsMalformedEvenBeforeItIsRead() {
        let padding = String(repeating: " ", count: GoogleNotificationLimits.maxBodyBytes)
        let body = Bodies.push(Bodies.notification(Bodies.test)) + Array(padding.utf8)
        #expect(refusal(body) == "the body is larger than 65536 bytes")
        let fits = Array(Bodies.push(Bodies.notification(Bodies.test)))
        #expect(fits.count < GoogleNotificationLimits.maxBodyBytes)
    }
}
