import Foundation

extension RFC3339 {
    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, the millisecond rounded to nearest (ties away from zero): byte for byte what
    /// `ISO8601DateFormatter` with `[.withInternetDateTime, .withFractionalSeconds]` writes for years 1970–9999, at a
    /// fraction of its cost (it built an ICU formatter per call: 22 % of a payment's CPU; docs/performance.md).
    public static func format(_ date: Date) -> String {
        let allMillis = Int((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = allMillis >= 0 ? allMillis / 1000 : (allMillis - 999) / 1000
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        bytes.append(UInt8(ascii: "."))
        digits(allMillis - seconds * 1000, 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
