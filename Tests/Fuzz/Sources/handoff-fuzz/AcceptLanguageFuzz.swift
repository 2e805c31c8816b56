@testable import API
import Domain

/// `accept-language`: the bytes as an `Accept-Language` header, read by the post-payment page (`PageLanguage`) and by
/// the recovery mail (`EmailRecoveryHandler.language`).
///
/// Properties: a header that does not contain `ru` in any letter case picks English in both; and both readers pick
/// the same language for a well-formed header built from the input (ranges `en`, `ru`, `de`, `en-GB`, `ru-RU`, each
/// with a q-value of three decimals or none), where the two implementations must agree.
enum AcceptLanguageFuzz {
    static let target = FuzzTarget(name: "accept-language", maxLength: 512, run: run)

    static let ranges = ["en", "ru", "de", "en-GB", "ru-RU", "fr", "EN", "Ru"]

    static func run(_ bytes: [UInt8]) {
        let header = text(bytes)
        let page = PageLanguage.choose(acceptLanguage: header)
        let mail = EmailRecoveryHandler.language(header)
        check(mail == "en" || mail == "ru", "mail language '\(mail)'")
        if !header.lowercased().contains("ru") {
            check(page == .en && mail == "en", "'\(header)' picks \(page) / \(mail) without naming ru")
        }
        let wellFormed = wellFormedHeader(bytes)
        let pageChoice = PageLanguage.choose(acceptLanguage: wellFormed)
        let mailChoice = EmailRecoveryHandler.language(wellFormed)
        check(pageChoice.rawValue == mailChoice, "'\(wellFormed)': page \(pageChoice), mail \(mailChoice)")
    }

    /// Two bytes per entry: a range from `ranges`, and a q-value (`;q=0.xyz`, `;q=1`, or none).
    static func wellFormedHeader(_ bytes: [UInt8]) -> String {
        stride(from: 0, to: bytes.count - 1, by: 2).map { index in
            let range = ranges[Int(bytes[index]) % ranges.count]
            let q = Int(bytes[index + 1])
            switch q {
            case 0..<200: return range + ";q=0." + String(String(q % 1000 + 1000).dropFirst())
            case 200..<220: return range + ";q=1"
            case 220..<230: return range + ";q=0"
            default: return range
            }
        }.joined(separator: ", ")
    }
}
