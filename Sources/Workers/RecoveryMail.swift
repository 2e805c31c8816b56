import Domain
import Foundation

/// The words of a recovery mail, in English or Russian: subject, plain text and HTML with the return link (when the
/// project has a return scheme), the code for manual entry, and the post-payment page link.
public struct RecoveryMail: Sendable, Equatable {
    public var subject: String
    public var text: String
    public var html: String

    /// Builds the mail; `language` is `ru` for Russian, anything else English. `expiresAt` is shown in UTC.
    public init(language: String, code: String, returnLink: String?, postPaymentURL: String, expiresAt: Date) {
        let russian = language == "ru"
        let expiry = expiresAt.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
            .replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
        let words = russian ? Self.russian : Self.english
        subject = words.subject
        var lines = [words.greeting, ""]
        if let returnLink { lines += [words.open, returnLink, ""] }
        lines += [words.manual, "", "    \(code)", "", words.page, postPaymentURL, "", words.expires + expiry, "",
                  words.ignore]
        text = lines.joined(separator: "\n") + "\n"
        let escape = Self.escape
        var body = "<p>\(escape(words.greeting))</p>\n"
        if let returnLink {
            body += "<p><a href=\"\(escape(returnLink))\">\(escape(words.button))</a></p>\n"
        }
        body += "<p>\(escape(words.manual))</p>\n<p style=\"font-size:24px;font-family:monospace;letter-spacing:2px\">"
            + "<strong>\(escape(code))</strong></p>\n"
            + "<p>\(escape(words.page)) <a href=\"\(escape(postPaymentURL))\">\(escape(postPaymentURL))</a></p>\n"
            + "<p>\(escape(words.expires + expiry))</p>\n<p style=\"color:#666\">\(escape(words.ignore))</p>\n"
        html = "<!DOCTYPE html>\n<html lang=\"\(russian ? "ru" : "en")\"><head><meta charset=\"utf-8\">"
            + "<title>\(escape(subject))</title></head>\n<body>\n\(body)</body></html>\n"
    }

    private struct Words {
        var subject, greeting, open, button, manual, page, expires, ignore: String
    }

    private static let english = Words(
        subject: "Your purchase: open it in the app",
        greeting: "Someone (hopefully you) asked to restore a purchase made with this e-mail address.",
        open: "Open this link on the phone where the app is installed:",
        button: "Open in the app",
        manual: "Or enter this code in the app:",
        page: "Your purchase page:",
        expires: "The code works once, until ",
        ignore: "If you did not ask for this, ignore this mail: nothing changes.")

    private static let russian = Words(
        subject: "Ваша покупка: откройте её в приложении",
        greeting: "Кто-то (надеемся, вы) попросил восстановить покупку, сделанную с этим адресом.",
        open: "Откройте эту ссылку на телефоне, где установлено приложение:",
        button: "Открыть в приложении",
        manual: "Или введите этот код в приложении:",
        page: "Страница вашей покупки:",
        expires: "Код действует один раз, до ",
        ignore: "Если вы ничего не просили, просто проигнорируйте это письмо.")

    /// HTML-escapes `text` (`HTMLText.escape`).
    static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
