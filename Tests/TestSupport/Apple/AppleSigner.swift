import Crypto
import Foundation

/// Signs JWS as the App Store does (ES256, `x5c` of three standard-base64 certificates), with the test keys of
/// `Tests/Fixtures/apple/certs`, so tests can make any notification they need.
public struct AppleSigner: Sendable {
    /// The signing key: the leaf's.
    public let key: ECDSAPrivateKey
    /// `x5c`: standard base64 of each certificate's DER, leaf first.
    public let chain: [String]

    public init(key: ECDSAPrivateKey, chain: [String]) {
        self.key = key
        self.chain = chain
    }

    /// The test chain (leaf, intermediate, root) and the test leaf's key: verifies against `testCA.der`.
    public static let test = AppleSigner(
        key: ECDSAPrivateKey(pem: AppleFixtures.certificateText("testLeaf.key"))!,
        chain: [pemBase64("testLeaf.pem"), pemBase64("testIntermediate.pem"), derBase64("testCA.der")])

    /// A chain that looks like the test chain but ends at a root of its own (`ExtraChains`), and its leaf's key.
    public static let rogue = AppleSigner(
        key: ECDSAPrivateKey(pem: ExtraChains.rogueLeafKey)!,
        chain: [base64(pem: ExtraChains.rogueLeaf), base64(pem: ExtraChains.rogueIntermediate),
                base64(pem: ExtraChains.rogueRoot)])

    /// The standard base64 of the first certificate in a PEM fixture.
    public static func pemBase64(_ name: String) -> String {
        base64(X509Certificate.certificates(pem: AppleFixtures.certificateText(name))[0].der)
    }

    /// The standard base64 of a DER fixture.
    public static func derBase64(_ name: String) -> String {
        base64(AppleFixtures.certificateFile(name))
    }

    /// The standard base64 of the first certificate in PEM text.
    public static func base64(pem: String) -> String {
        base64(X509Certificate.certificates(pem: pem)[0].der)
    }

    public static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// The same key with another `x5c`.
    public func with(chain: [String]) -> AppleSigner {
        AppleSigner(key: key, chain: chain)
    }

    /// A JWS of `payload` (a JSON object, serialized with sorted keys).
    public func sign(_ payload: [String: Any]) -> String {
        sign(payload: String(decoding: try! JSONSerialization.data(withJSONObject: payload, options: .sortedKeys),
                             as: UTF8.self))
    }

    /// A JWS of the payload text as given, under the App Store's header.
    public func sign(payload: String) -> String {
        let header = try! JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": chain, "typ": "JWT"],
                                                 options: .sortedKeys)
        return sign(header: String(decoding: header, as: UTF8.self), payload: payload)
    }

    /// A JWS of header and payload texts as given.
    public func sign(header: String, payload: String) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(key.signature(for: Array(input.utf8)))
    }
}

/// Payloads as the App Store sends them, for `AppleSigner`.
public enum ApplePayloads {
    /// 2030-01-01T00:00:00Z in milliseconds: inside the validity of every test certificate.
    public static let signedDate: Int64 = 1_893_456_000_000
    public static let bundleId = "com.example"
    public static let appAppleId: Int64 = 1234
    public static let appAccountToken = "7e3fb20b-4cdb-47cc-936d-99d65f608138"

    /// A notification with `data` for `com.example` (`appAppleId` 1234 unless nil).
    public static func notification(
        type: String = "TEST", subtype: String? = nil, uuid: String = UUID().uuidString.lowercased(),
        environment: String = "Sandbox", bundleId: String = bundleId, appAppleId: Int64? = appAppleId,
        signedDate: Int64? = signedDate, transaction: String? = nil, renewalInfo: String? = nil
    ) -> [String: Any] {
        var data: [String: Any] = ["bundleId": bundleId, "environment": environment, "bundleVersion": "42"]
        data["appAppleId"] = appAppleId
        data["signedTransactionInfo"] = transaction
        data["signedRenewalInfo"] = renewalInfo
        var payload: [String: Any] = ["notificationType": type, "notificationUUID": uuid, "version": "2.0",
                                      "data": data]
        payload["subtype"] = subtype
        payload["signedDate"] = signedDate
        return payload
    }

    /// A renewed monthly subscription bought with Handoff's `appAccountToken`.
    public static func transaction(
        environment: String = "Sandbox", bundleId: String = bundleId, signedDate: Int64? = signedDate,
        appAccountToken: String = appAccountToken, transactionId: String = "2000000777",
        originalTransactionId: String = "2000000100", expiresDate: Int64 = 1_896_134_400_000
    ) -> [String: Any] {
        var payload: [String: Any] = [
            "transactionId": transactionId, "originalTransactionId": originalTransactionId,
            "webOrderLineItemId": "2000000050",
            "bundleId": bundleId, "productId": "pro.monthly", "subscriptionGroupIdentifier": "21000001",
            "purchaseDate": 1_893_450_000_000 as Int64, "originalPurchaseDate": 1_880_000_000_000 as Int64,
            "expiresDate": expiresDate, "quantity": 1, "type": "Auto-Renewable Subscription",
            "appAccountToken": appAccountToken, "inAppOwnershipType": "PURCHASED", "environment": environment,
            "transactionReason": "RENEWAL", "storefront": "USA", "storefrontId": "143441", "currency": "USD",
            "price": 10_990,
        ]
        payload["signedDate"] = signedDate
        return payload
    }

    /// Renewal info of the same subscription.
    public static func renewalInfo(environment: String = "Sandbox", signedDate: Int64? = signedDate) -> [String: Any] {
        var payload: [String: Any] = [
            "originalTransactionId": "2000000100", "autoRenewProductId": "pro.monthly", "productId": "pro.monthly",
            "autoRenewStatus": 1, "renewalDate": 1_896_134_400_000 as Int64, "renewalPrice": 10_990,
            "currency": "USD", "environment": environment,
        ]
        payload["signedDate"] = signedDate
        return payload
    }
}
