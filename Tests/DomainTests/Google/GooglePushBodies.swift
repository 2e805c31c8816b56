import Foundation

/// Pub/Sub push bodies of Google Play notifications, built as Pub/Sub sends them, for the parser tests.
enum GooglePushBodies {
    /// `{"message":{"attributes","data","messageId","message_id","publishTime","publish_time"},"subscription"}`
    /// around the base64 of `notification` (Pub/Sub sends both spellings of the id and the time).
    static func push(
        _ notification: String, messageId: String = "136969346945", attributes: String = "{}"
    ) -> [UInt8] {
        let data = Data(notification.utf8).base64EncodedString()
        return Array("""
            {"message":{"attributes":\(attributes),"data":"\(data)","messageId":"\(messageId)",\
            "message_id":"\(messageId)","publishTime":"2025-06-15T12:00:00.123Z",\
            "publish_time":"2025-06-15T12:00:00.123Z"},\
            "subscription":"projects/handoff-test/subscriptions/play-rtdn"}
            """.utf8)
    }

    /// A push whose `message.data` is the given text as is (not base64-encoded by this helper).
    static func push(rawData: String) -> [UInt8] {
        Array("""
            {"message":{"data":"\(rawData)","messageId":"1"},"subscription":"projects/p/subscriptions/s"}
            """.utf8)
    }

    /// A `DeveloperNotification` with `kind` (e.g. `"subscriptionNotification":{…}`) after the common fields.
    static func notification(_ kind: String, packageName: String = "com.example.app",
                             eventTimeMillis: String = "\"1750000000123\"") -> String {
        """
        {"version":"1.0","packageName":"\(packageName)","eventTimeMillis":\(eventTimeMillis)\
        \(kind.isEmpty ? "" : ",")\(kind)}
        """
    }

    static let subscription = """
        "subscriptionNotification":{"version":"1.0","notificationType":4,"purchaseToken":"token-abc.123_XYZ",\
        "subscriptionId":"monthly001"}
        """
    static let oneTimeProduct = """
        "oneTimeProductNotification":{"version":"1.0","notificationType":1,"purchaseToken":"token-otp",\
        "sku":"coins_100"}
        """
    static let voided = """
        "voidedPurchaseNotification":{"purchaseToken":"token-void","orderId":"GPA.1234-5678-9012-34567",\
        "productType":1,"refundType":1}
        """
    static let test = "\"testNotification\":{\"version\":\"1.0\"}"
}
