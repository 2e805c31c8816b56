import Domain
import Foundation

/// The words of a recovery mail, in English or Russian: subject, plain text and HTML. For each buyer the address
/// belongs to, a line naming the purchase (product, amount, date), the return link (when the project has a return
/// scheme), the code for manual entry, and the post-payment page link; with several buyers, a line saying so first,
/// so the mailbox owner picks theirs.
public struct RecoveryMail: Sendable, Equatable {
    public var subject: String
    public var text: String
    public var html: String

    /// One purchase the mail names, with its own code.
    public struct Entry: Sendable, Equatable {
        public var productId: String
        /// Minor units of `currency`.
        public var amount: Int
        public var currency: String
        public var paidAt: Date
        public var code: String
        public var returnLink: String?
        public var postPaymentURL: String

        public init(productId: String, amount: Int, currency: String, paidAt: Date, code: String,
                    returnLink: String?, postPaymentURL: String) {
            self.productId = productId
            self.amount = amount
            self.currency = currency
            self.paidAt = paidAt
            self.code = code
            self.returnLink = returnLink
            self.postPaymentURL = postPaymentURL
        }
    }

    /// Builds the mail; `language` is `ru` for Russian, anything else English. Times are shown in UTC.
    public init(language: String, entries: [Entry], expiresAt: Date) {
        let russian = language == "ru"
        let words = russian ? Self.russian : Self.english
        let several = entries.count > 1
        let expiry = (several ? words.expiresEach : words.expires) + Self.utc(expiresAt, seconds: true)
        subject = words.subject
        var lines = [words.greeting, ""]
        if several { lines += [words.several(entries.count), ""] }
        let escape = Self.escape
        var body = "<p>\(escape(words.greeting))</p>\n"
        if several { body += "<p>\(escape(words.several(entries.count)))</p>\n" }
        for entry in entries {
            let purchase = words.purchase(entry.productId, MoneyText.display(amount: entry.amount,
                                                                             currency: entry.currency),
                                          Self.utc(entry.paidAt, seconds: false))
            lines += [purchase]
            body += (several ? "<hr>\n" : "") + "<p><strong>\(escape(purchase))</strong></p>\n"
            if let returnLink = entry.returnLink {
                lines += [words.open, returnLink, ""]
                body += "<p><a href=\"\(escape(returnLink))\">\(escape(words.button))</a></p>\n"
            } else {
                lines += [""]
            }
            lines += [words.manual, "", "    \(entry.code)", "", words.page, entry.postPaymentURL, ""]
            body += "<p>\(escape(words.manual))</p>\n"
                + "<p style=\"font-size:24px;font-family:monospace;letter-spacing:2px\">"
                + "<strong>\(escape(entry.code))</strong></p>\n"
                + "<p>\(escape(words.page)) <a href=\"\(escape(entry.postPaymentURL))\">"
                + "\(escape(entry.postPaymentURL))</a></p>\n"
        }
        lines += [expiry, "", words.ignore]
        text = lines.joined(separator: "\n") + "\n"
        body += "<p>\(escape(expiry))</p>\n<p style=\"color:#666\">\(escape(words.ignore))</p>\n"
        html = "<!DOCTYPE html>\n<html lang=\"\(russian ? "ru" : "en")\"><head><meta charset=\"utf-8\">"
            + "<title>\(escape(subject))</title></head>\n<body>\n\(body)</body></html>\n"
    }

    /// `2027-01-18 08:00:00 UTC` (or without seconds).
    private static func utc(_ date: Date, seconds: Bool) -> String {
        let text = date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
            .replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
        return (seconds ? text : String(text.dropLast(3))) + " UTC"
    }

    private struct Words {
        var subject, greeting, open, button, manual, page, expires, expiresEach, ignore: String
        var several: @Sendable (Int) -> String
        var purchase: @Sendable (_ product: String, _ amount: String, _ paidAt: String) -> String
    }

    private static let english = Words(
        subject: "Your purchase: open it in the app",
        greeting: "Someone (hopefully you) asked to restore a purchase made with this e-mail address.",
        open: "Open this link on the phone where the app is installed:",
        button: "Open in the app",
        manual: "Or enter this code in the app:",
        page: "Your purchase page:",
        expires: "The code works once, until ",
        expiresEach: "Each code works once, until ",
        ignore: "If you did not ask for this, ignore this mail: nothing changes.",
        several: { "This address was given with \($0) purchases. Each has its own code below: "
            + "use the one of the purchase you made." },
        purchase: { "Purchase: \($0), \($1), paid \($2)" })

    private static let russian = Words(
        subject: "Ваша покупка: откройте её в приложении",
        greeting: "Кто-то (надеемся, вы) попросил восстановить покупку, сделанную с этим адресом.",
        open: "Откройте эту ссылку на телефоне, где установлено приложение:",
        button: "Открыть в приложении",
        manual: "Или введите этот код в приложении:",
        page: "Страница вашей покупки:",
        expires: "Код действует один раз, до ",
        expiresEach: "Каждый код действует один раз, до ",
        ignore: "Если вы ничего не просили, просто проигнорируйте это письмо.",
        several: { "С этим адресом связаны несколько покупок (\($0)). У каждой свой код ниже: "
            + "используйте код той покупки, которую сделали вы." },
        purchase: { "Покупка: \($0), \($1), оплачена \($2)" })

    /// HTML-escapes `text` (`HTMLText.escape`).
    static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
