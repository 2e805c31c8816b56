import Foundation

/// Reads a raw recovery mail as the SMTP sink received it: subject, decoded parts, the code (for every test target
/// that reads mails: the API's, the workers', HandoffKit's).
public enum RecoveryMail {
    /// The 32 symbols of handoff codes (Domain's `CodeAlphabet`; this target does not depend on Domain).
    static let codeSymbols = Set("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")

    /// The decoded text part of a raw mail.
    public static func textPart(_ raw: String) -> String { part(raw, type: "text/plain") }

    /// The decoded HTML part of a raw mail.
    public static func htmlPart(_ raw: String) -> String { part(raw, type: "text/html") }

    /// The first code-like line of a mail's text: 8 symbols of the code alphabet.
    public static func code(_ text: String) -> String? {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count == 8 && $0.allSatisfy { codeSymbols.contains($0) } }
    }

    public static func part(_ raw: String, type: String) -> String {
        let parts = raw.components(separatedBy: "Content-Type: \(type); charset=utf-8\r\n")
        guard parts.count > 1 else { return "" }
        let base64 = parts[1].components(separatedBy: "\r\n\r\n")[1].components(separatedBy: "\r\n--")[0]
            .replacingOccurrences(of: "\r\n", with: "")
        return String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self)
            .replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// The decoded `Subject` (RFC 2047 base64 words, as the mailer writes them).
    public static func subject(_ raw: String) -> String {
        let header = raw.components(separatedBy: "\r\n\r\n")[0].replacingOccurrences(of: "\r\n ", with: " ")
        guard let line = header.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("Subject: ") }) else {
            return ""
        }
        return line.dropFirst("Subject: ".count).split(separator: " ").map { word in
            String(decoding: Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data(), as: UTF8.self)
        }.joined()
    }
}
