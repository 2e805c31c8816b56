@testable import Domain
import Foundation

/// `pubsub-push`: the bytes as the body of `POST /v1/m/store/google/{token}` (`GoogleNotificationParser.parse`), as
/// the `DeveloperNotification` inside one (`developerNotification(from:)`, and wrapped in base64 into a push), as
/// Pub/Sub's `data` text (`decodeBase64`), and as the push's OIDC token (`bearerToken`, `CompactJWT.parse`).
///
/// Properties: a push either parses or is refused as malformed with a message that names a field or the body and
/// never repeats a string value that looks like an id (8+ characters with a digit and no space, or with `@`); a parsed
/// push keeps its limits (printable ids, attribute counts and sizes, an Android package name, an instant in range)
/// and survives a print/parse round trip; a notification parses alike bare and inside a push (same value, or the same
/// refusal); accepted base64 is canonical; a parsed JWT's signing input is exactly the text up to its second dot.
enum PubSubPushFuzz {
    static let target = FuzzTarget(name: "pubsub-push", maxLength: 4096, run: run)

    static func run(_ bytes: [UInt8]) {
        switch GoogleNotificationParser.parse(body: bytes) {
        case .success(let push): checkAccepted(push)
        case .failure(let failure): checkRefusal(failure, bytes)
        }
        checkBareAndWrapped(bytes)
        checkBase64(text(bytes))
        checkToken(text(bytes))
    }

    /// The envelope a bare notification is wrapped in.
    static func wrap(_ data: [UInt8]) -> [UInt8] {
        let base64 = Data(data).base64EncodedString()
        return Array(#"{"message":{"data":"\#(base64)","messageId":"1"},"subscription":"projects/p/subscriptions/s"}"#
            .utf8)
    }

    private static func checkAccepted(_ push: PubSubPush) {
        let limits = GoogleNotificationLimits.self
        check(GoogleJSON.isToken(push.message.messageId, maxLength: limits.maxMessageIDLength),
              "accepted messageId '\(push.message.messageId)'")
        check(GoogleJSON.isToken(push.subscription, maxLength: limits.maxSubscriptionLength),
              "accepted subscription '\(push.subscription)'")
        check(push.message.attributes.count <= limits.maxAttributes
                && push.message.attributes.allSatisfy { $0.key.utf8.count <= limits.maxAttributeKeyBytes
                    && !$0.key.isEmpty && $0.value.utf8.count <= limits.maxAttributeValueBytes },
              "accepted attributes \(push.message.attributes)")
        checkNotification(push.notification)
        guard let reprinted = print(push) else { return check(false, "a parsed push does not print") }
        check((try? GoogleNotificationParser.parse(body: reprinted).get()) == push,
              "a parsed push printed and parsed again differs: \(text(reprinted))")
    }

    private static func checkNotification(_ notification: DeveloperNotification) {
        let limits = GoogleNotificationLimits.self
        check((try? AndroidPackage.parse(notification.packageName).get()) != nil,
              "accepted packageName '\(notification.packageName)'")
        check((0...253_402_300_799_999).contains(notification.eventTimeMillis),
              "accepted eventTimeMillis \(notification.eventTimeMillis)")
        if let token = notification.purchaseToken {
            check(GoogleJSON.isToken(token, maxLength: limits.maxPurchaseTokenLength), "accepted token '\(token)'")
        }
        switch notification.kind {
        case .subscription(let kind):
            check(kind.notificationType.rawValue >= 0 && notification.typeName == kind.notificationType.name,
                  "subscription type \(kind.notificationType.rawValue) named \(notification.typeName ?? "nil")")
        case .oneTimeProduct(let kind):
            check(GoogleJSON.isToken(kind.sku, maxLength: limits.maxIdentifierLength), "accepted sku '\(kind.sku)'")
        case .voidedPurchase(let kind):
            check(GoogleJSON.isToken(kind.orderId, maxLength: limits.maxIdentifierLength),
                  "accepted orderId '\(kind.orderId)'")
        case .test, .unrecognized:
            check(notification.typeName == nil, "a test or unrecognized notification has a type name")
        }
        guard let reprinted = print(notification) else { return check(false, "a notification does not print") }
        check((try? GoogleNotificationParser.developerNotification(from: reprinted).get()) == notification,
              "a parsed notification printed and parsed again differs: \(text(reprinted))")
    }

    private static func checkRefusal(_ failure: GoogleIntakeFailure, _ bytes: [UInt8]) {
        guard case .malformed(let message) = failure else { return check(false, "a body refused as unauthorized") }
        check(message.hasPrefix("field '") || message.hasPrefix("the body "), "refusal message '\(message)'")
        var documents = [bytes]
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
           let data = (object["message"] as? [String: Any])?["data"] as? String,
           let decoded = Data(base64Encoded: data) {
            documents.append([UInt8](decoded))
        }
        // Numbers the rules quote are no echo of the body.
        var quoted = message
        for rule in ["2147483647", "253402300799999", "\(GoogleNotificationLimits.maxBodyBytes)"] {
            quoted = quoted.replacingOccurrences(of: rule, with: " ")
        }
        for document in documents {
            if let echoed = JSONBodyFuzz.echoedValue(in: quoted, body: document) {
                check(false, "the refusal '\(message)' repeats the value '\(echoed)'")
            }
        }
    }

    private static func checkBareAndWrapped(_ bytes: [UInt8]) {
        let bare = GoogleNotificationParser.developerNotification(from: bytes)
        let wrapped = GoogleNotificationParser.parse(body: wrap(bytes)).map(\.notification)
        check(bare == wrapped, "bare \(bare) but wrapped \(wrapped)")
        if case .success(let notification) = bare { checkNotification(notification) }
    }

    private static func checkBase64(_ candidate: String) {
        guard let decoded = GoogleNotificationParser.decodeBase64(candidate) else { return }
        let canonical = Data(decoded).base64EncodedString()
        check(canonical == candidate || canonical.replacingOccurrences(of: "=", with: "") == candidate,
              "accepted base64 '\(candidate)' is not the spelling of its bytes '\(canonical)'")
    }

    private static func checkToken(_ candidate: String) {
        if let token = GooglePushTokenRule.bearerToken(candidate) {
            check(!token.isEmpty && !token.contains(" "), "bearer token '\(token)'")
        }
        guard let jwt = CompactJWT.parse(candidate) else { return }
        let parts = candidate.split(separator: ".", omittingEmptySubsequences: false)
        check(parts.count == 3 && jwt.signingInput == Array((parts[0] + "." + parts[1]).utf8),
              "the signing input of '\(candidate)'")
        check(!jwt.signature.isEmpty && Base64URLText.encode(jwt.signature) == parts[2],
              "the signature of '\(candidate)'")
    }

    /// A push as Pub/Sub would send it with `push`'s values (sorted keys).
    private static func print(_ push: PubSubPush) -> [UInt8]? {
        var message: [String: Any] = [
            "data": Data(push.message.data).base64EncodedString(), "messageId": push.message.messageId,
            "attributes": push.message.attributes,
        ]
        if let publishTime = push.message.publishTime { message["publishTime"] = publishTime }
        return serialize(["message": message, "subscription": push.subscription])
    }

    /// `notification` as Google would send it.
    private static func print(_ notification: DeveloperNotification) -> [UInt8]? {
        var object: [String: Any] = [
            "version": notification.version, "packageName": notification.packageName,
            "eventTimeMillis": String(notification.eventTimeMillis),
        ]
        switch notification.kind {
        case .subscription(let kind):
            var fields: [String: Any] = [
                "version": kind.version, "notificationType": kind.notificationType.rawValue,
                "purchaseToken": kind.purchaseToken,
            ]
            if let subscriptionId = kind.subscriptionId { fields["subscriptionId"] = subscriptionId }
            object["subscriptionNotification"] = fields
        case .oneTimeProduct(let kind):
            object["oneTimeProductNotification"] = [
                "version": kind.version, "notificationType": kind.notificationType.rawValue,
                "purchaseToken": kind.purchaseToken, "sku": kind.sku,
            ] as [String: Any]
        case .voidedPurchase(let kind):
            var fields: [String: Any] = [
                "purchaseToken": kind.purchaseToken, "orderId": kind.orderId, "productType": kind.productType.rawValue,
            ]
            if let refundType = kind.refundType { fields["refundType"] = refundType.rawValue }
            object["voidedPurchaseNotification"] = fields
        case .test(let kind):
            object["testNotification"] = ["version": kind.version]
        case .unrecognized:
            break
        }
        return serialize(object)
    }

    private static func serialize(_ object: [String: Any]) -> [UInt8]? {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { [UInt8]($0) }
    }
}
