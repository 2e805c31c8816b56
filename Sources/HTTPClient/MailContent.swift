import Foundation

/// What a mail says, before it is encoded: sender, one recipient, subject, and the same text as plain text and HTML.
///
/// `MailMessage(content)` turns it into an RFC 5322 `multipart/alternative` message. Any text (subject, display
/// name, bodies) may hold any Unicode, line breaks included: the subject and name go out as RFC 2047 encoded words
/// and the bodies as base64, so nothing a caller passes can start a new header line. Addresses are checked instead
/// (`MailAddress.isAcceptable`): one with a control character, whitespace or `<>(),;:"[]\` is refused.
public struct MailContent: Sendable, Equatable {
    /// The sender's bare address (`noreply@example.com`), also the envelope sender.
    public var fromAddress: String
    /// The sender's display name, e.g. `Handoff`; nil for none.
    public var fromName: String?
    /// The recipient's bare address, also the envelope recipient.
    public var to: String
    public var subject: String
    /// The plain-text part (UTF-8; `\n` or `\r\n` line ends).
    public var text: String
    /// The HTML part (UTF-8), a whole document.
    public var html: String
    /// The `Message-ID` without angle brackets (`job-42@handoff.local`); a repeated send of the same mail should
    /// reuse it so mail clients show one message.
    public var messageID: String
    /// The `Date` header.
    public var date: Date

    public init(fromAddress: String, fromName: String?, to: String, subject: String, text: String, html: String,
                messageID: String, date: Date) {
        self.fromAddress = fromAddress
        self.fromName = fromName
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.messageID = messageID
        self.date = date
    }
}

/// Checks on bare e-mail addresses before they go into a header or an SMTP envelope.
public enum MailAddress {
    /// True for `local@domain` of at most 254 bytes with exactly one `@`, both sides non-empty, and no control
    /// character, space, DEL or any of `<>(),;:"[]\` (UTF-8 beyond ASCII is allowed, RFC 6532).
    public static func isAcceptable(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard (3...254).contains(bytes.count) else { return false }
        let forbidden = Set("<>(),;:\"[]\\".utf8)
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || forbidden.contains($0) }) else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }
}

extension MailMessage {
    /// Encodes `content` as a `multipart/alternative` message (text first, HTML second, both base64 UTF-8) with its
    /// envelope; throws `SMTPError(.invalidAddress)` when the sender or recipient is not `MailAddress.isAcceptable`.
    ///
    /// `boundary` separates the parts; the default is random. It never occurs in base64 lines.
    public init(_ content: MailContent, boundary: String = "=_handoff_" + UUID().uuidString) throws(SMTPError) {
        guard MailAddress.isAcceptable(content.fromAddress), MailAddress.isAcceptable(content.to) else {
            throw SMTPError(kind: .invalidAddress, message: "a sender or recipient address is not acceptable")
        }
        guard MailAddress.isAcceptable(content.messageID) else {
            throw SMTPError(kind: .invalidAddress, message: "the Message-ID is not acceptable")
        }
        let from = content.fromName.map { MailHeader.encodedWords($0) + " <\(content.fromAddress)>" }
            ?? content.fromAddress
        var lines = [
            "From: " + from,
            "To: " + content.to,
            "Subject: " + MailHeader.encodedWords(content.subject),
            "Date: " + MailHeader.date(content.date),
            "Message-ID: <\(content.messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "This is a MIME message with a plain-text and an HTML part.",
        ]
        for (type, body) in [("text/plain", content.text), ("text/html", content.html)] {
            lines += ["", "--" + boundary, "Content-Type: \(type); charset=utf-8",
                      "Content-Transfer-Encoding: base64", ""]
            lines += MailHeader.base64Lines(Array(MailHeader.crlf(body).utf8))
        }
        lines += ["", "--" + boundary + "--", ""]
        self.init(from: content.fromAddress, to: [content.to], data: Array(lines.joined(separator: "\r\n").utf8))
    }
}

/// Header and body encodings of `MailMessage(content)`.
enum MailHeader {
    /// `text` as RFC 2047 `=?UTF-8?B?…?=` words of at most 75 characters, folded with CRLF + space; split only
    /// between characters, so every word holds whole UTF-8 sequences.
    static func encodedWords(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45, !chunk.isEmpty {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(word(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    private static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }

    /// Base64 in lines of 76 characters (RFC 2045).
    static func base64Lines(_ bytes: [UInt8]) -> [String] {
        let encoded = Data(bytes).base64EncodedString()
        var lines: [String] = []
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[index..<end]))
            index = end
        }
        return lines
    }

    /// `text` with every line ending as CRLF.
    static func crlf(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// RFC 5322 date in UTC: `Mon, 30 Nov 2026 21:48:44 +0000`.
    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
