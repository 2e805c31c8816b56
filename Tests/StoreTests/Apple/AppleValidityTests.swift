import Commands
import Foundation
import Testing
import TestSupport

/// Certificates are judged at the payload's `signedDate` (at the clock only without one), also for chains the
/// verifier already trusted.
struct AppleValidityTests {
    private let signer = AppleSigner.test
    /// 2023-01-01: before the test leaf (2023-01-05 to 2033-01-01).
    private static let beforeLeaf: Int64 = 1_672_531_200_000
    /// 2034-01-01: after the test leaf.
    private static let afterLeaf: Int64 = 2_019_686_400_000

    private func verify(_ payload: [String: Any], verifier: AppleSignedDataVerifier = AppleVerifiers.test,
                        now: Date = AppleVerifiers.now)
        -> Result<VerifiedAppleNotification, AppleVerificationFailure> {
        verifier.verifyNotification(signedPayload: signer.sign(payload), bundleId: "com.example", appAppleId: 1234,
                                    now: now)
    }

    @Test func aNotificationSignedBeforeTheLeafWasValidIsRefused() {
        #expect(verify(ApplePayloads.notification(signedDate: Self.beforeLeaf))
            .isUnauthorized(.certificateNotValidAtSignedDate))
    }

    @Test func aNotificationSignedAfterTheLeafExpiredIsRefused() {
        #expect(verify(ApplePayloads.notification(signedDate: Self.afterLeaf))
            .isUnauthorized(.certificateNotValidAtSignedDate))
    }

    @Test func theSignedDateDecidesNotTheClock() {
        // Today's clock far beyond the chain changes nothing for a notification signed in 2030.
        let farFuture = Date(timeIntervalSince1970: 4_000_000_000)
        #expect(verify(ApplePayloads.notification(), now: farFuture).value != nil)
    }

    @Test func withoutSignedDateTheClockDecides() {
        let undated = ApplePayloads.notification(signedDate: nil)
        #expect(verify(undated).value != nil)
        #expect(verify(undated, now: Date(timeIntervalSince1970: 2_019_686_400))
            .isUnauthorized(.certificateNotValidAtSignedDate))
    }

    @Test func aNestedTransactionSignedOutsideTheLeafsValidityIsRefused() {
        let payload = ApplePayloads.notification(
            type: "DID_RENEW", transaction: signer.sign(ApplePayloads.transaction(signedDate: Self.afterLeaf)))
        #expect(verify(payload).isUnauthorized(.certificateNotValidAtSignedDate, in: .transaction))
    }

    @Test func aChainVerifiedBeforeIsStillJudgedAtEachSignedDate() {
        let verifier = AppleSignedDataVerifier(roots: AppleVerifiers.testRoots)
        #expect(verify(ApplePayloads.notification(), verifier: verifier).value != nil)
        #expect(verify(ApplePayloads.notification(signedDate: Self.afterLeaf), verifier: verifier)
            .isUnauthorized(.certificateNotValidAtSignedDate))
        #expect(verify(ApplePayloads.notification(signedDate: Self.beforeLeaf), verifier: verifier)
            .isUnauthorized(.certificateNotValidAtSignedDate))
        // The last second of the window: the intermediate (2033-01-01T21:31:05Z) expires before the leaf.
        #expect(verify(ApplePayloads.notification(signedDate: 1_988_227_864_999), verifier: verifier).value != nil)
        #expect(verify(ApplePayloads.notification(signedDate: 1_988_227_865_000), verifier: verifier)
            .isUnauthorized(.certificateNotValidAtSignedDate))
    }

    @Test func signedDatesAtTheEndsOfTheRangeAreRefused() {
        for signedDate in [Int64.min, -1, 0, Int64.max] {
            #expect(verify(ApplePayloads.notification(signedDate: signedDate)).refusal?.kind == "unauthorized",
                    "\(signedDate)")
        }
    }

    @Test func aSignedDateJustBeforeTheLeafIsRoundedDownToTheSecondBefore() {
        // notBefore of the test leaf is 1672954294 s: 999 ms before it is still outside.
        #expect(verify(ApplePayloads.notification(signedDate: 1_672_954_293_999))
            .isUnauthorized(.certificateNotValidAtSignedDate))
        #expect(verify(ApplePayloads.notification(signedDate: 1_672_954_294_000)).value != nil)
    }
}
