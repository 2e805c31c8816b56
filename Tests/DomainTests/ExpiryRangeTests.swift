import Domain
import Foundation
import Testing

/// `PaymentFields.rfc3339`: only instants in the years 1970–9999, judged after the offset is applied.
struct ExpiryRangeTests {
    static func accepts(_ text: String) -> Bool {
        if case .success = PaymentFields.rfc3339(text) { true } else { false }
    }

    @Test func theFirstInstantOf1970IsAccepted() { #expect(Self.accepts("1970-01-01T00:00:00Z")) }
    @Test func theLastSecondOf9999IsAccepted() { #expect(Self.accepts("9999-12-31T23:59:59Z")) }
    @Test func aNegativeOffsetThatCrossesIntoYear10000IsRefused() {
        #expect(!Self.accepts("9999-12-31T23:59:59-23:59"))
    }
    @Test func aPositiveOffsetWithinTheRangeIsAccepted() { #expect(Self.accepts("9999-12-31T23:59:59+01:00")) }
    @Test func yearZeroIsRefused() { #expect(!Self.accepts("0000-01-01T00:00:00Z")) }
    @Test func theLastSecondBefore1970IsRefused() { #expect(!Self.accepts("1969-12-31T23:59:59Z")) }
    @Test func anOffsetThatBringsA1970TextBefore1970IsRefused() {
        #expect(!Self.accepts("1970-01-01T00:30:00+01:00"))
    }

    @Test func theLastInstantTakenIsOneMillisecondBeforeLatestInstant() {
        let last = RFC3339.parse("9999-12-31T23:59:59.999Z")?.timeIntervalSince1970
        #expect(last.map { (RFC3339.latestInstant - $0 - 0.001).magnitude < 0.000_1 } == true)
        #expect(RFC3339.parse("1970-01-01T00:00:00Z")?.timeIntervalSince1970 == 0)
    }
}
