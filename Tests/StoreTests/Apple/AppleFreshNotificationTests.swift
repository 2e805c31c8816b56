import Commands
import Crypto
import Domain
import Foundation
import Synchronization
import Testing
import TestSupport

/// Notifications signed in the test with the fixture keys: what verifies, what each app rule refuses, and the nested
/// transaction and renewal info.
struct AppleFreshNotificationTests {
    private let verifier = AppleVerifiers.test
    private let signer = AppleSigner.test

    private func verify(_ payload: [String: Any], bundleId: String = ApplePayloads.bundleId,
                        appAppleId: Int64? = ApplePayloads.appAppleId)
        -> Result<VerifiedAppleNotification, AppleVerificationFailure> {
        verifier.verifyNotification(signedPayload: signer.sign(payload), bundleId: bundleId, appAppleId: appAppleId,
                                    now: AppleVerifiers.now)
    }

    @Test func aFreshTestNotificationVerifies() throws {
        let uuid = UUID().uuidString.lowercased()
        let verified = try verify(ApplePayloads.notification(uuid: uuid)).get()
        #expect(verified.notificationUUID == uuid)
        #expect(verified.notificationType == "TEST")
        #expect(verified.environment == .sandbox)
        #expect(verified.signedDate == Date(timeIntervalSince1970: 1_893_456_000))
    }

    @Test func aDidRenewWithNestedTransactionAndRenewalInfoVerifiesInProduction() throws {
        let payload = ApplePayloads.notification(
            type: "DID_RENEW", subtype: "BILLING_RECOVERY", environment: "Production",
            transaction: signer.sign(ApplePayloads.transaction(environment: "Production")),
            renewalInfo: signer.sign(ApplePayloads.renewalInfo(environment: "Production")))
        let verified = try verify(payload).get()
        #expect(verified.notificationType == "DID_RENEW")
        #expect(verified.subtype == "BILLING_RECOVERY")
        #expect(verified.environment == .production)
        let transaction = try #require(verified.transaction)
        #expect(transaction.appAccountTokenUUID == UUID(uuidString: ApplePayloads.appAccountToken))
        #expect(transaction.transactionId == "2000000777")
        #expect(transaction.originalTransactionId == "2000000100")
        #expect(transaction.productId == "pro.monthly")
        #expect(transaction.price == 10_990)
        #expect(transaction.currency == "USD")
        #expect(transaction.type == "Auto-Renewable Subscription")
        #expect(transaction.expiresAt == Date(timeIntervalSince1970: 1_896_134_400))
        let renewal = try #require(verified.renewalInfo)
        #expect(renewal.autoRenewProductId == "pro.monthly")
        #expect(renewal.autoRenewStatus == 1)
    }

    @Test func aProductionNotificationNeedsTheAppsAppleId() {
        let production = ApplePayloads.notification(environment: "Production")
        #expect(verify(production).value != nil)
        #expect(verify(production, appAppleId: 1235).isUnauthorized(.appAppleIdMismatch))
        #expect(verify(production, appAppleId: nil).isUnauthorized(.appAppleIdMismatch))
        let withoutId = ApplePayloads.notification(environment: "Production", appAppleId: nil)
        #expect(verify(withoutId).isUnauthorized(.appAppleIdMismatch))
    }

    @Test func aSandboxNotificationWithoutAppleIdVerifiesButAnotherAppleIdIsRefused() {
        #expect(verify(ApplePayloads.notification(appAppleId: nil)).value != nil)
        #expect(verify(ApplePayloads.notification(appAppleId: 99)).isUnauthorized(.appAppleIdMismatch))
        #expect(verify(ApplePayloads.notification(appAppleId: 99), appAppleId: nil).value != nil)
    }

    @Test func anotherBundleIsRefused() {
        #expect(verify(ApplePayloads.notification(bundleId: "com.example.other")).isUnauthorized(.bundleIdMismatch))
        #expect(verify(ApplePayloads.notification(), bundleId: "com.Example").isUnauthorized(.bundleIdMismatch))
    }

    @Test func onlyProductionAndSandboxAreAccepted() {
        for environment in ["Xcode", "LocalTesting", "production", "Staging", ""] {
            #expect(verify(ApplePayloads.notification(environment: environment))
                .isUnauthorized(.environmentNotAccepted), "\(environment)")
        }
    }

    @Test func aNotificationWithoutDataNamesNoApp() {
        let payload: [String: Any] = ["notificationType": "TEST", "notificationUUID": UUID().uuidString,
                                      "signedDate": ApplePayloads.signedDate]
        #expect(verify(payload).isUnauthorized(.bundleIdMismatch))
    }

    @Test func aRenewalExtensionSummaryIsCheckedByItsSummary() throws {
        let summary: [String: Any] = ["bundleId": "com.example", "appAppleId": 1234, "environment": "Production",
                                      "productId": "pro.monthly", "requestIdentifier": "r1",
                                      "storefrontCountryCodes": ["USA", "FRA"], "succeededCount": 7,
                                      "failedCount": 1]
        let payload: [String: Any] = ["notificationType": "RENEWAL_EXTENSION", "subtype": "SUMMARY",
                                      "notificationUUID": UUID().uuidString, "signedDate": ApplePayloads.signedDate,
                                      "summary": summary]
        let verified = try verify(payload).get()
        #expect(verified.environment == .production)
        #expect(verified.payload.summary?.succeededCount == 7)
        #expect(verify(payload, appAppleId: 1).isUnauthorized(.appAppleIdMismatch))
    }

    @Test func aNestedTransactionOfAnotherBundleIsRefused() {
        let payload = ApplePayloads.notification(
            type: "DID_RENEW", transaction: signer.sign(ApplePayloads.transaction(bundleId: "com.example.other")))
        #expect(verify(payload).isUnauthorized(.bundleIdMismatch, in: .transaction))
    }

    @Test func nestedDataOfAnotherEnvironmentIsRefused() {
        let transaction = ApplePayloads.notification(
            type: "DID_RENEW", transaction: signer.sign(ApplePayloads.transaction(environment: "Production")))
        #expect(verify(transaction).isUnauthorized(.environmentMismatch, in: .transaction))
        let renewal = ApplePayloads.notification(
            type: "DID_RENEW", renewalInfo: signer.sign(ApplePayloads.renewalInfo(environment: "Production")))
        #expect(verify(renewal).isUnauthorized(.environmentMismatch, in: .renewalInfo))
    }

    @Test func aNestedTransactionWithABadSignatureIsRefused() {
        var parts = signer.sign(ApplePayloads.transaction()).split(separator: ".").map(String.init)
        var signature = Base64URL.decode(parts[2])!
        signature[10] ^= 0x01
        parts[2] = Base64URL.encode(signature)
        let signed = parts.joined(separator: ".")
        let payload = ApplePayloads.notification(type: "DID_RENEW", transaction: signed)
        #expect(verify(payload).isUnauthorized(.invalidSignature, in: .transaction))
    }

    @Test func aMalformedNestedTransactionMakesTheNotificationMalformed() {
        #expect(verify(ApplePayloads.notification(type: "DID_RENEW", transaction: "not.a.jws"))
            .isMalformed(.malformedJWS, in: .transaction))
        #expect(verify(ApplePayloads.notification(type: "DID_RENEW", renewalInfo: signer.sign(payload: "[]")))
            .isMalformed(.malformedPayload, in: .renewalInfo))
    }

    @Test func aNestedTransactionFromAnotherChainIsRefused() {
        let payload = ApplePayloads.notification(type: "DID_RENEW",
                                                 transaction: AppleSigner.rogue.sign(ApplePayloads.transaction()))
        #expect(verify(payload).isUnauthorized(.untrustedChain, in: .transaction))
    }

    @Test func aPayloadThatIsNoNotificationIsMalformed() {
        #expect(verify(["notificationType": "TEST"]).isMalformed(.malformedPayload))
        let long = ApplePayloads.notification(bundleId: String(repeating: "b", count: 256))
        #expect(verify(long).isMalformed(.malformedPayload))
        #expect(verifier.verifyNotification(signedPayload: signer.sign(payload: "null"), bundleId: "com.example",
                                            appAppleId: 1234, now: AppleVerifiers.now).isMalformed(.malformedPayload))
    }

    @Test func manyThreadsVerifyAtOnce() {
        let signed = (0..<16).map { _ in
            signer.sign(ApplePayloads.notification(type: "DID_RENEW",
                                                   transaction: signer.sign(ApplePayloads.transaction()),
                                                   renewalInfo: signer.sign(ApplePayloads.renewalInfo())))
        }
        let verifier = AppleSignedDataVerifier(roots: AppleVerifiers.testRoots)
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let result = verifier.verifyNotification(signedPayload: signed[index % signed.count],
                                                     bundleId: "com.example", appAppleId: 1234,
                                                     now: AppleVerifiers.now)
            if result.value?.transaction == nil { failures.add(1, ordering: .relaxed) }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }
}
