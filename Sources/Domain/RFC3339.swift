import Foundation

/// The RFC 3339 date-times the API takes (`expiresAt`): `YYYY-MM-DDTHH:MM:SS[.fraction]` and `Z` or `±HH:MM`.
///
/// Exactly: a real calendar date (leap years included) in the years 1970–9999, hours 00–23, minutes and seconds 00–59
/// (no leap second), 1–9 fraction digits, `T`/`Z` in either case, an offset of at most 23:59. On 1970-01-01 the offset
/// may not be positive and on 9999-12-31 not negative (else the instant would leave 1970–9999, and a year-10000
/// instant has no RFC 3339 spelling); a zero offset is fine on both. `pattern` is this rule as one regular
/// expression, which `/openapi.json` publishes; `parse` is the same rule in code. The instant keeps the millisecond
/// (further digits are dropped).
public enum RFC3339 {
    /// The first and last year taken.
    public static let years = 1970...9999
    /// The first instant after the range, 10000-01-01T00:00:00Z, in seconds since 1970: every instant `parse`
    /// answers is in `0..<latestInstant`.
    public static let latestInstant: TimeInterval = 253_402_300_800

    /// The whole rule as a regular expression (ECMA-262, Python, ICU and Rust read it alike).
    public static let pattern: String = {
        let monthDay = "(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
            + "|02-(?:0[1-9]|1[0-9]|2[0-8]))"
        let notJanuary = monthDay.replacingOccurrences(of: "(?:0[13578]|1[02])", with: "(?:0[3578]|1[02])")
        let notDecember = monthDay.replacingOccurrences(of: "(?:0[13578]|1[02])", with: "(?:0[13578]|10)")
        // Years 1971–9998, then every leap year (all within them), then 1970 and 9999 without their edge day.
        let innerYears = "(?:197[1-9]|19[89][0-9]|[2-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])"
        let leapYears = "(?:19(?:7[26]|8[048]|9[26])|[2-9][0-9](?:0[48]|[2468][048]|[13579][26])"
            + "|(?:[2468][048]|[3579][26])00)"
        let time = "[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?"
        let hhmm = "(?:[01][0-9]|2[0-3]):[0-5][0-9]"
        let anyOffset = "(?:[Zz]|[+-]\(hhmm))"
        let general = "(?:\(innerYears)-\(monthDay)|\(leapYears)-02-29"
            + "|1970-(?:01-(?:0[2-9]|[12][0-9]|3[01])|\(notJanuary))"
            + "|9999-(?:12-(?:0[1-9]|[12][0-9]|30)|\(notDecember)))\(time)\(anyOffset)"
        let first = "1970-01-01\(time)(?:[Zz]|[+-]00:00|-\(hhmm))"
        let last = "9999-12-31\(time)(?:[Zz]|[+-]00:00|\\+\(hhmm))"
        return "^(?:\(general)|\(first)|\(last))$"
    }()

    /// The shortest and longest text the rule takes (`1970-01-01T00:00:00Z`, nine fraction digits and an offset).
    public static let lengths = 20...35

    /// The instant `text` names, or nil when `text` breaks the rule.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard lengths.contains(b.count) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard ASCII.isDigit(b[index]) else { return nil }
                value = value * 10 + Int(b[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] | 0x20 == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              years.contains(year), (1...12).contains(month), (1...daysIn(month, year)).contains(day),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        var index = 19
        var milliseconds = 0
        if b[index] == UInt8(ascii: ".") {
            let start = index + 1
            var end = start
            while end < b.count, ASCII.isDigit(b[end]) { end += 1 }
            guard (1...9).contains(end - start), let fraction = number(start..<min(end, start + 3)) else { return nil }
            milliseconds = fraction * [100, 10, 1][min(end - start, 3) - 1]
            index = end
        }
        var offsetMinutes = 0
        if index == b.count - 1, b[index] | 0x20 == UInt8(ascii: "z") {
            offsetMinutes = 0
        } else if index == b.count - 6, b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-"),
                  b[index + 3] == UInt8(ascii: ":"), let hours = number(index + 1..<index + 3),
                  let minutes = number(index + 4..<index + 6), hours <= 23, minutes <= 59 {
            offsetMinutes = (hours * 60 + minutes) * (b[index] == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return nil
        }
        if year == years.lowerBound, month == 1, day == 1, offsetMinutes > 0 { return nil }
        if year == years.upperBound, month == 12, day == 31, offsetMinutes < 0 { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Date(timeIntervalSince1970: Double(seconds * 1000 + milliseconds) / 1000)
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (proleptic Gregorian; Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
