import Commands
import Crypto
import Domain
import Foundation
import Testing
import TestSupport

/// Every fixture of `Tests/Fixtures/apple` behaves as its README says, against the test root.
struct AppleFixtureVerificationTests {
    private let verifier = AppleVerifiers.test

    private func notification(_ name: String, bundleId: String = "com.example", appAppleId: Int64? = 1234,
                              environments: Set<AppleEnvironment> = [.production, .sandbox])
        -> Result<VerifiedAppleNotification, AppleVerificationFailure> {
        verifier.verifyNotification(signedPayload: AppleFixtures.signedData(name), bundleId: bundleId,
                                    appAppleId: appAppleId, environments: environments, now: AppleVerifiers.now)
    }

    @Test func theTestNotificationIsValidForSandboxComExample1234() throws {
        let verified = try notification("testNotification").get()
        #expect(verified.notificationType == "TEST")
        #expect(verified.subtype == nil)
        #expect(verified.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
        #expect(verified.environment == .sandbox)
        #expect(verified.signedDate == Date(timeIntervalSince1970: 1_681_314_324))
        #expect(verified.payload.data?.appAppleId == 1234)
        #expect(verified.transaction == nil)
        #expect(verified.renewalInfo == nil)
    }

    @Test func theTestNotificationIsValidForAnAppWithoutAnAppleId() {
        #expect(notification("testNotification", appAppleId: nil).value != nil)
    }

    @Test func theTestNotificationIsWrongForProduction() {
        #expect(notification("testNotification", environments: [.production]).isUnauthorized(.environmentNotAccepted))
    }

    @Test func theTestNotificationIsWrongForAppAppleId1235() {
        #expect(notification("testNotification", appAppleId: 1235).isUnauthorized(.appAppleIdMismatch))
    }

    @Test func theTestNotificationIsWrongForAnotherBundle() {
        #expect(notification("testNotification", bundleId: "com.example.x").isUnauthorized(.bundleIdMismatch))
    }

    @Test func theTransactionInfoIsValidForComExample() throws {
        let transaction = try verifier.verifyTransaction(
            signedTransaction: AppleFixtures.signedData("transactionInfo"), bundleId: "com.example",
            now: AppleVerifiers.now).get()
        #expect(transaction.environment == "Sandbox")
        #expect(transaction.signedDate == 1_672_956_154_000)
    }

    @Test func theTransactionInfoIsWrongForBundleComExampleX() {
        let result = verifier.verifyTransaction(signedTransaction: AppleFixtures.signedData("transactionInfo"),
                                                bundleId: "com.example.x", now: AppleVerifiers.now)
        #expect(result.isUnauthorized(.bundleIdMismatch, in: .transaction))
    }

    @Test func theTransactionInfoIsWrongForProductionOnly() {
        let result = verifier.verifyTransaction(signedTransaction: AppleFixtures.signedData("transactionInfo"),
                                                bundleId: "com.example", environments: [.production],
                                                now: AppleVerifiers.now)
        #expect(result.isUnauthorized(.environmentNotAccepted, in: .transaction))
    }

    @Test func theRenewalInfoIsValid() throws {
        let renewal = try verifier.verifyRenewalInfo(signedRenewalInfo: AppleFixtures.signedData("renewalInfo"),
                                                     now: AppleVerifiers.now).get()
        #expect(renewal.environment == "Sandbox")
        #expect(renewal.signedDate == 1_672_956_154_000)
    }

    @Test func theWrongBundleIdNotificationIsRefused() {
        #expect(notification("wrongBundleId").isUnauthorized(.bundleIdMismatch))
    }

    @Test func theMissingX5CHeaderClaimIsMalformed() {
        #expect(notification("missingX5CHeaderClaim").isMalformed(.missingCertificateChain))
    }

    @Test func theLegacyTransactionIsMalformed() {
        #expect(notification("legacyTransaction").isMalformed(.malformedJWS))
        let asTransaction = verifier.verifyTransaction(
            signedTransaction: AppleFixtures.signedData("legacyTransaction"), bundleId: "com.example",
            now: AppleVerifiers.now)
        #expect(asTransaction.isMalformed(.malformedJWS, in: .transaction))
    }

    @Test func aNotificationIsNoTransaction() {
        // Apple's own test: the notification fixture read as a transaction has no bundle id.
        let result = verifier.verifyTransaction(signedTransaction: AppleFixtures.signedData("testNotification"),
                                                bundleId: "com.example", now: AppleVerifiers.now)
        #expect(result.isUnauthorized(.bundleIdMismatch, in: .transaction))
    }

    @Test func aLeafWithoutTheReceiptSigningOIDIsRefused() {
        let signer = AppleSigner.test.with(chain: [AppleSigner.derBase64("testInvalidOIDLeaf.der"),
                                                   AppleSigner.test.chain[1], AppleSigner.test.chain[2]])
        let result = verifier.verifyNotification(signedPayload: signer.sign(ApplePayloads.notification()),
                                                 bundleId: "com.example", appAppleId: 1234, now: AppleVerifiers.now)
        #expect(result.isUnauthorized(.missingLeafOID))
    }

    @Test func anIntermediateWithoutTheWWDROIDIsRefused() {
        for leaf in [AppleSigner.derBase64("testLeafForInvalidOIDIntermediate.der"),
                     AppleSigner.pemBase64("testInvalidIntermediateLeaf.pem")] {
            let signer = AppleSigner.test.with(chain: [leaf, AppleSigner.derBase64("testInvalidOIDIntermediate.der"),
                                                       AppleSigner.test.chain[2]])
            let result = verifier.verifyNotification(signedPayload: signer.sign(ApplePayloads.notification()),
                                                     bundleId: "com.example", appAppleId: 1234,
                                                     now: AppleVerifiers.now)
            #expect(result.isUnauthorized(.missingIntermediateOID))
        }
    }

    @Test func theInvalidOIDChainsAreSoundApartFromTheirOIDs() {
        // So the refusals above are about the OIDs: both chains verify as chains.
        let store = X509TrustStore(roots: [X509Certificate(der: AppleFixtures.certificateFile("testCA.der"))!])
        let intermediate = X509Certificate(der: AppleFixtures.certificateFile("testInvalidOIDIntermediate.der"))!
        let leaf = X509Certificate(der: AppleFixtures.certificateFile("testLeafForInvalidOIDIntermediate.der"))!
        guard case .valid = store.verify(leaf: leaf, intermediates: [intermediate], at: 1_893_456_000) else {
            Issue.record("the invalid-OID chain does not verify as a chain")
            return
        }
    }

    @Test func theRealAppleRootRefusesEveryTestFixture() {
        for name in ["testNotification", "wrongBundleId"] {
            let result = AppleVerifiers.real.verifyNotification(
                signedPayload: AppleFixtures.signedData(name), bundleId: "com.example", appAppleId: 1234,
                now: AppleVerifiers.now)
            #expect(result.isUnauthorized(.untrustedChain), "\(name)")
        }
        let transaction = AppleVerifiers.real.verifyTransaction(
            signedTransaction: AppleFixtures.signedData("transactionInfo"), bundleId: "com.example",
            now: AppleVerifiers.now)
        #expect(transaction.isUnauthorized(.untrustedChain, in: .transaction))
        let renewal = AppleVerifiers.real.verifyRenewalInfo(
            signedRenewalInfo: AppleFixtures.signedData("renewalInfo"), now: AppleVerifiers.now)
        #expect(renewal.isUnauthorized(.untrustedChain, in: .renewalInfo))
    }
}
