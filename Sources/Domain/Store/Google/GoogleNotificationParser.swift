import Foundation

/// Reads the body of a Google Play notification: a Pub/Sub push whose `message.data` is a base64
/// `DeveloperNotification`.
///
/// Pure: no clock, no keys. Unknown fields are ignored (Pub/Sub also sends `message_id` and `publish_time`, and may
/// add fields); known fields must have their documented types and stay within `GoogleNotificationLimits`. A
/// subscription with "payload unwrapping" switched on sends the bare notification and is refused as malformed.
public enum GoogleNotificationParser {
    /// The push in `body` with its notification decoded, or `.malformed` with a message naming the field.
    ///
    /// The size limit (`GoogleNotificationLimits.maxBodyBytes`) belongs to the route (413); a larger body is still
    /// refused here as malformed.
    public static func parse(body: [UInt8]) -> Result<PubSubPush, GoogleIntakeFailure> {
        guard body.count <= GoogleNotificationLimits.maxBodyBytes else {
            let limit = GoogleNotificationLimits.maxBodyBytes
            return .failure(.malformed(message: "the body is larger than \(limit) bytes"))
        }
        let push: PushWire
        switch GoogleJSON.decode(PushWire.self, from: body, prefix: "") {
        case .success(let decoded): push = decoded
        case .failure(let failure): return .failure(failure)
        }
        return developerNotification(from: push.message.data).map { notification in
            PubSubPush(
                subscription: push.subscription,
                message: PubSubMessage(messageId: push.message.messageId, publishTime: push.message.publishTime,
                                       attributes: push.message.attributes, data: push.message.data),
                notification: notification)
        }
    }

    /// The `DeveloperNotification` in the decoded bytes of `message.data`; refusals name fields from `message.data`.
    public static func developerNotification(
        from data: [UInt8]
    ) -> Result<DeveloperNotification, GoogleIntakeFailure> {
        GoogleJSON.decode(NotificationWire.self, from: data, prefix: "message.data").map { $0.notification }
    }

    /// Standard base64 (RFC 4648 §4) with or without `=` padding, as Pub/Sub encodes `data`; nil for anything else,
    /// including non-zero unused bits, so each byte string has one accepted spelling apart from the padding.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        let symbols: [UInt8] = [UInt8(ascii: "+"), UInt8(ascii: "/")]
        var unpadded = Substring(text)
        if unpadded.utf8.count % 4 == 0, unpadded.hasSuffix("=") {
            unpadded = unpadded.dropLast(unpadded.hasSuffix("==") ? 2 : 1)
        }
        guard unpadded.utf8.count % 4 != 1,
              unpadded.utf8.allSatisfy({ ASCII.isLetterOrDigit($0) || symbols.contains($0) }) else { return nil }
        let padded = unpadded + String(repeating: "=", count: (4 - unpadded.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: String(padded)), data.base64EncodedString() == padded else { return nil }
        return [UInt8](data)
    }
}

/// `{"message":{…},"subscription":"…"}`.
private struct PushWire: Decodable {
    let message: MessageWire
    let subscription: String

    enum CodingKeys: String, CodingKey { case message, subscription }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(MessageWire.self, forKey: .message)
        subscription = try container.googleToken(
            .subscription, maxLength: GoogleNotificationLimits.maxSubscriptionLength)
    }
}

/// `{"data","messageId","publishTime","attributes"}`.
private struct MessageWire: Decodable {
    let messageId: String
    let publishTime: String?
    let attributes: [String: String]
    let data: [UInt8]

    enum CodingKeys: String, CodingKey { case messageId, publishTime, attributes, data }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let limits = GoogleNotificationLimits.self
        messageId = try container.googleToken(.messageId, maxLength: limits.maxMessageIDLength)
        publishTime = try container.googleOptionalToken(.publishTime, maxLength: limits.maxSubscriptionLength)
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
        try container.googleCheck(
            attributes.count <= limits.maxAttributes
                && attributes.allSatisfy { key, value in
                    (1...limits.maxAttributeKeyBytes).contains(key.utf8.count)
                        && value.utf8.count <= limits.maxAttributeValueBytes
                },
            .attributes,
            "have at most \(limits.maxAttributes) entries, keys of 1 to \(limits.maxAttributeKeyBytes) bytes and "
                + "values of at most \(limits.maxAttributeValueBytes) bytes")
        let text = try container.decode(String.self, forKey: .data)
        let bytes = GoogleNotificationParser.decodeBase64(text)
        try container.googleCheck(bytes != nil, .data, "be base64 text")
        data = bytes ?? []
    }
}

/// The `DeveloperNotification` JSON.
private struct NotificationWire: Decodable {
    let notification: DeveloperNotification

    enum CodingKeys: String, CodingKey {
        case version, packageName, eventTimeMillis
        case subscriptionNotification, oneTimeProductNotification, voidedPurchaseNotification, testNotification
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let limit = GoogleNotificationLimits.maxIdentifierLength
        let version = try container.googleToken(.version, maxLength: limit)
        let packageName = try container.decode(String.self, forKey: .packageName)
        guard case .success = AndroidPackage.parse(packageName) else {
            throw GoogleFieldError(path: container.codingPath + [CodingKeys.packageName], rule: "be an Android "
                + "package name: two or more '.'-separated segments, each a letter followed by letters, digits or '_'")
        }
        let eventTimeMillis = try Self.milliseconds(container)
        let kinds: [CodingKeys] = [
            .subscriptionNotification, .oneTimeProductNotification, .voidedPurchaseNotification, .testNotification,
        ]
        let present = try kinds.filter { try container.contains($0) && !container.decodeNil(forKey: $0) }
        guard present.count <= 1 else {
            throw GoogleFieldError(path: container.codingPath, rule: "hold only one of subscriptionNotification, "
                + "oneTimeProductNotification, voidedPurchaseNotification and testNotification")
        }
        let kind: DeveloperNotification.Kind
        switch present.first {
        case .subscriptionNotification?:
            kind = .subscription(try container.decode(SubscriptionWire.self, forKey: .subscriptionNotification).value)
        case .oneTimeProductNotification?:
            kind = .oneTimeProduct(
                try container.decode(OneTimeProductWire.self, forKey: .oneTimeProductNotification).value)
        case .voidedPurchaseNotification?:
            kind = .voidedPurchase(try container.decode(VoidedWire.self, forKey: .voidedPurchaseNotification).value)
        case .testNotification?:
            kind = .test(try container.decode(TestWire.self, forKey: .testNotification).value)
        default:
            kind = .unrecognized
        }
        notification = DeveloperNotification(
            version: version, packageName: packageName, eventTimeMillis: eventTimeMillis, kind: kind)
    }

    /// `eventTimeMillis`: proto3 JSON sends an int64 as a decimal string; a plain number is taken too.
    private static func milliseconds(_ container: KeyedDecodingContainer<CodingKeys>) throws -> Int64 {
        let range: ClosedRange<Int64> = 0...253_402_300_799_999
        let rule = "be a whole number of milliseconds from 0 to 253402300799999 (a string or a number)"
        guard let text = try? container.decode(String.self, forKey: .eventTimeMillis) else {
            return try container.googleWholeNumber(.eventTimeMillis, in: range, rule: rule)
        }
        let value = text.utf8.allSatisfy(ASCII.isDigit) && (1...15).contains(text.utf8.count) ? Int64(text) : nil
        try container.googleCheck(value.map(range.contains) ?? false, .eventTimeMillis, rule)
        return value ?? 0
    }
}

private struct SubscriptionWire: Decodable {
    let value: SubscriptionNotification

    enum CodingKeys: String, CodingKey { case version, notificationType, purchaseToken, subscriptionId }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let limits = GoogleNotificationLimits.self
        value = SubscriptionNotification(
            version: try container.googleToken(.version, maxLength: limits.maxIdentifierLength),
            notificationType: SubscriptionNotificationType(
                rawValue: try container.googleEnumeration(.notificationType)),
            purchaseToken: try container.googleToken(.purchaseToken, maxLength: limits.maxPurchaseTokenLength),
            subscriptionId: try container.googleOptionalToken(.subscriptionId, maxLength: limits.maxIdentifierLength))
    }
}

private struct OneTimeProductWire: Decodable {
    let value: OneTimeProductNotification

    enum CodingKeys: String, CodingKey { case version, notificationType, purchaseToken, sku }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let limits = GoogleNotificationLimits.self
        value = OneTimeProductNotification(
            version: try container.googleToken(.version, maxLength: limits.maxIdentifierLength),
            notificationType: OneTimeProductNotificationType(
                rawValue: try container.googleEnumeration(.notificationType)),
            purchaseToken: try container.googleToken(.purchaseToken, maxLength: limits.maxPurchaseTokenLength),
            sku: try container.googleToken(.sku, maxLength: limits.maxIdentifierLength))
    }
}

private struct VoidedWire: Decodable {
    let value: VoidedPurchaseNotification

    enum CodingKeys: String, CodingKey { case purchaseToken, orderId, productType, refundType }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let limits = GoogleNotificationLimits.self
        let refundType = try container.contains(.refundType) && !container.decodeNil(forKey: .refundType)
            ? VoidedPurchaseRefundType(rawValue: try container.googleEnumeration(.refundType)) : nil
        value = VoidedPurchaseNotification(
            purchaseToken: try container.googleToken(.purchaseToken, maxLength: limits.maxPurchaseTokenLength),
            orderId: try container.googleToken(.orderId, maxLength: limits.maxIdentifierLength),
            productType: VoidedPurchaseProductType(rawValue: try container.googleEnumeration(.productType)),
            refundType: refundType)
    }
}

private struct TestWire: Decodable {
    let value: TestNotification

    enum CodingKeys: String, CodingKey { case version }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = TestNotification(
            version: try container.googleToken(.version, maxLength: GoogleNotificationLimits.maxIdentifierLength))
    }
}
