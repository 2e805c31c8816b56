import Domain
import Foundation
import Testing

/// `RFC3339.format` writes what `ISO8601DateFormatter` wrote before it (instants stored in events and answered by the
/// API keep their exact spelling).
@Suite struct RFC3339FormatTests {
    private func foundation(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test func edgesAndHalfMillisecondsAreWrittenAsFoundationWritesThem() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: RFC3339.latestInstant - 0.001))
            == "9999-12-31T23:59:59.999Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_700_000_000.9995)) == "2023-11-14T22:13:21.000Z")
        for step in 0..<2_000 {
            let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(step) * 0.0005)
            #expect(RFC3339.format(date) == foundation(date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func randomInstantsOfEveryYearAreWrittenAsFoundationWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 0..<RFC3339.latestInstant, using: &generator))
            #expect(RFC3339.format(date) == foundation(date), "\(date.timeIntervalSince1970)")
        }
    }
}
