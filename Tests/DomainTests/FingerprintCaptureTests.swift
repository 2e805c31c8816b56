import Domain
import Foundation
import Testing

struct FingerprintCaptureTests {
    static let paidAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let expiresAt = paidAt + 2 * 60 * 60

    static func decide(on: Bool = true, codeUsable: Bool = true, ipUsable: Bool = true, matched: Bool = false,
                       after: TimeInterval = 60) -> FingerprintCapture.Decision {
        FingerprintCapture.decide(FingerprintCapture.State(fingerprintingOn: on, codeUsable: codeUsable,
                                                           paidAt: paidAt, ipUsable: ipUsable,
                                                           alreadyMatched: matched),
                                  now: paidAt + after)
    }

    @Test func aCaptureRightAfterThePaymentIsRecordedUntilTheExactWindowEnds() {
        #expect(Self.decide() == .record(expiresAt: Self.expiresAt))
    }

    @Test func aCaptureOneSecondBeforeTheWindowEndsIsRecorded() {
        #expect(Self.decide(after: 2 * 60 * 60 - 1) == .record(expiresAt: Self.expiresAt))
    }

    @Test func aCaptureExactlyAtTheWindowsEndIsTooLate() {
        #expect(Self.decide(after: 2 * 60 * 60) == .skip(.tooLate))
    }

    @Test func fingerprintingOffIsDecidedBeforeAnythingElse() {
        #expect(Self.decide(on: false, codeUsable: false, ipUsable: false, matched: true, after: 99_999)
            == .skip(.fingerprintingOff))
    }

    @Test func anUnusableCodeIsDecidedBeforeTheTime() {
        #expect(Self.decide(codeUsable: false, ipUsable: false, matched: true, after: 99_999) == .skip(.codeNotUsable))
    }

    @Test func tooLateIsDecidedBeforeTheIP() {
        #expect(Self.decide(ipUsable: false, matched: true, after: 99_999) == .skip(.tooLate))
    }

    @Test func anUnusableIPIsDecidedBeforeAnEarlierMatch() {
        #expect(Self.decide(ipUsable: false, matched: true) == .skip(.unusableIP))
    }

    @Test func anAlreadyMatchedFingerprintIsNotRecordedAgain() {
        #expect(Self.decide(matched: true) == .skip(.alreadyMatched))
    }
}
