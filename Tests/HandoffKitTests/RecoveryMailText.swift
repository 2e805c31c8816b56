import Foundation

/// The code in a raw recovery mail as the SMTP sink kept it: the first line of its decoded text part that is 8
/// characters of the code alphabet.
enum RecoveryMailText {
    /// The decoded `Subject` (RFC 2047 base64 words, as the mailer writes them).
    static func subject(_ raw: String) -> String {
        let header = raw.components(separatedBy: "\r\n\r\n")[0].replacingOccurrences(of: "\r\n ", with: " ")
        guard let line = header.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("Subject: ") }) else {
            return ""
        }
        return line.dropFirst("Subject: ".count).split(separator: " ").map { word in
            String(decoding: Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data(), as: UTF8.self)
        }.joined()
    }

    static func code(_ raw: String) -> String? {
        let parts = raw.components(separatedBy: "Content-Type: text/plain; charset=utf-8\r\n")
        guard parts.count > 1 else { return nil }
        let base64 = parts[1].components(separatedBy: "\r\n\r\n")[1].components(separatedBy: "\r\n--")[0]
            .replacingOccurrences(of: "\r\n", with: "")
        let text = String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self)
        let alphabet = Set("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
        return text.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count == 8 && $0.allSatisfy { alphabet.contains($0) } }
    }
}
