import Foundation
import HTTPClient
import Testing
import TestSupport

/// `MailMessage(MailContent)`: multipart/alternative, RFC 2047 headers, and no header injection through any field.
struct MailContentTests {
    static func content(to: String = "buyer@example.com", from: String = "noreply@handoff.test",
                        name: String? = "Handoff", subject: String = "Ваш код: 7K3M9Q2X") -> MailContent {
        MailContent(fromAddress: from, fromName: name, to: to, subject: subject, text: "Привет!\nCode: 7K3M9Q2X\n",
                    html: "<p>Привет! <b>7K3M9Q2X</b></p>", messageID: "job-42@handoff.test",
                    date: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// The decoded bodies of the parts of a raw multipart message, in order.
    static func parts(_ raw: String) throws -> [(type: String, body: String)] {
        let boundaryLine = try #require(raw.split(separator: "\r\n").first { $0.hasPrefix("Content-Type: multipart") })
        let boundary = try #require(boundaryLine.split(separator: "\"").dropFirst().first.map(String.init))
        return try raw.components(separatedBy: "--" + boundary).dropFirst().dropLast().map { part in
            let sections = part.components(separatedBy: "\r\n\r\n")
            let type = sections[0].split(separator: "\r\n").first { $0.hasPrefix("Content-Type:") }
                .map(String.init) ?? ""
            let base64 = sections[1].replacingOccurrences(of: "\r\n", with: "")
            let data = try #require(Data(base64Encoded: base64))
            return (type, String(decoding: data, as: UTF8.self))
        }
    }

    @Test func aMailHasATextAndAnHTMLPartAndArrivesWhole() throws {
        let sink = try SMTPSink()
        let message = try MailMessage(Self.content())
        try SMTPClient(configuration: SMTPConfiguration(url: sink.url)).send(message)
        let raw = try #require(sink.messages().first)
        #expect(raw.contains("\r\nTo: buyer@example.com\r\n"))
        #expect(raw.contains("From: =?UTF-8?B?SGFuZG9mZg==?= <noreply@handoff.test>\r\n"))
        #expect(raw.contains("Subject: =?UTF-8?B?" + Data("Ваш код: 7K3M9Q2X".utf8).base64EncodedString() + "?=\r\n"))
        #expect(raw.contains("\r\nMessage-ID: <job-42@handoff.test>\r\n"))
        #expect(raw.contains("\r\nDate: Fri, 15 Jan 2027 08:00:00 +0000\r\n"))
        #expect(raw.contains("\r\nMIME-Version: 1.0\r\n"))
        let parts = try Self.parts(raw)
        #expect(parts.map(\.type) == ["Content-Type: text/plain; charset=utf-8",
                                      "Content-Type: text/html; charset=utf-8"])
        #expect(parts.map(\.body) == ["Привет!\r\nCode: 7K3M9Q2X\r\n", "<p>Привет! <b>7K3M9Q2X</b></p>"])
    }

    @Test(arguments: ["victim@example.com\r\nBcc: other@example.com", "a@example.com\n", "a@example.com\r",
                      "a b@example.com", "Name <a@example.com>", "a@example.com,b@example.com", "no-at-sign", ""])
    func aRecipientThatCouldInjectAHeaderIsRefused(recipient: String) {
        let error = #expect(throws: SMTPError.self) { try MailMessage(Self.content(to: recipient)) }
        #expect(error?.kind == .invalidAddress)
    }

    @Test(arguments: ["noreply@handoff.test\r\nBcc: x@example.com", "noreply@handoff.test\n", "<noreply@handoff.test>"])
    func aSenderThatCouldInjectAHeaderIsRefused(sender: String) {
        let error = #expect(throws: SMTPError.self) { try MailMessage(Self.content(from: sender)) }
        #expect(error?.kind == .invalidAddress)
    }

    @Test func lineBreaksInTheSubjectAndNameStayInsideEncodedWords() throws {
        let message = try MailMessage(Self.content(name: "Evil\r\nBcc: x@example.com",
                                                   subject: "Hi\r\nBcc: victim@example.com\r\n\r\nbody"))
        let raw = String(decoding: message.data, as: UTF8.self)
        let header = raw.components(separatedBy: "\r\n\r\n")[0]
        #expect(!header.contains("Bcc:"))
        #expect(header.split(separator: "\r\n").allSatisfy { line in
            line.hasPrefix(" ") || line.contains(": ")
        })
        #expect(message.to == ["buyer@example.com"])
    }

    @Test func aLongSubjectIsFoldedIntoWordsOfAtMost75Characters() throws {
        let subject = String(repeating: "Восстановление покупки ", count: 6)
        let message = try MailMessage(Self.content(subject: subject))
        let raw = String(decoding: message.data, as: UTF8.self)
        let header = raw.components(separatedBy: "\r\n\r\n")[0]
        let lines = header.components(separatedBy: "\r\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("Subject: ") })
        var words = [String(lines[start].dropFirst("Subject: ".count))]
        for line in lines[(start + 1)...] {
            guard line.hasPrefix(" ") else { break }
            words.append(String(line.dropFirst()))
        }
        #expect(words.count > 1)
        #expect(words.allSatisfy { $0.count <= 75 && $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") })
        let decoded = words.map { word -> String in
            let base64 = String(word.dropFirst(10).dropLast(2))
            return String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self)
        }.joined()
        #expect(decoded == subject)
    }
}
