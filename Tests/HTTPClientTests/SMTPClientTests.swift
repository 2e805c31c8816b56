import Foundation
import HTTPClient
import Testing
import TestSupport

/// infra/smtp-sink.py on a free port, storing into its own folder, for one test.
private final class Sink {
    let url: String
    let folder: String
    private let peer: PeerProcess

    init(maxSize: Int = 1 << 20, delayMilliseconds: Int = 0) throws {
        let port = try Shell.freePort()
        url = "smtp://127.0.0.1:\(port)"
        folder = NSTemporaryDirectory() + "handoff-smtp-sink-" + UUID().uuidString
        let arguments = ["--host", "127.0.0.1", "--port", "\(port)", "--dir", folder, "--exit-with-parent",
                         "--max-size", "\(maxSize)", "--delay-ms=\(delayMilliseconds)"]
        peer = try PeerProcess(script: "infra/smtp-sink.py", arguments: arguments)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// The stored messages' base names (without extension), oldest first.
    func storedMessages() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.map { String($0.dropLast(4)) }.sorted()
    }

    func raw(_ name: String) throws -> String {
        try String(contentsOfFile: folder + "/" + name + ".eml", encoding: .utf8)
    }

    func envelope(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name + ".json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

private func message(to recipients: [String], body: String) -> MailMessage {
    let text = "From: Handoff <noreply@handoff.test>\r\nTo: \(recipients.joined(separator: ", "))\r\n"
        + "Subject: Your handoff code\r\n\r\n" + body
    return MailMessage(from: "noreply@handoff.test", to: recipients, data: Array(text.utf8))
}

struct SMTPClientTests {
    @Test func aMessageIsDeliveredWithItsBodyAndEnvelope() throws {
        let sink = try Sink()
        let client = SMTPClient(configuration: SMTPConfiguration(url: sink.url))
        let body = "Your code is 123-456.\r\n.A line that starts with a dot\r\nBye\r\n"
        try client.send(message(to: ["buyer@example.com", "copy@example.com"], body: body))

        let stored = sink.storedMessages()
        try #require(stored.count == 1)
        let raw = try sink.raw(stored[0])
        #expect(raw.contains("Subject: Your handoff code\r\n"))
        #expect(raw.hasSuffix("\r\n\r\n" + body))
        let envelope = try sink.envelope(stored[0])
        #expect(envelope["mail_from"] as? String == "noreply@handoff.test")
        #expect(envelope["rcpt_tos"] as? [String] == ["buyer@example.com", "copy@example.com"])
    }

    @Test func oneThreadsMessagesShareOneConnection() throws {
        let sink = try Sink()
        let client = SMTPClient(configuration: SMTPConfiguration(url: sink.url))
        for number in 1...5 {
            try client.send(message(to: ["buyer\(number)@example.com"], body: "mail \(number)\r\n"))
        }
        let stored = sink.storedMessages()
        try #require(stored.count == 5)
        let peers = try stored.map { try #require(sink.envelope($0)["peer"] as? [Any]).last as? Int }
        #expect(Set(peers).count == 1 && peers[0] != nil, "peer ports \(peers)")
        #expect(try stored.map { try sink.envelope($0)["rcpt_tos"] as? [String] ?? [] }.sorted { $0[0] < $1[0] }
            == (1...5).map { ["buyer\($0)@example.com"] })
        #expect(client.keptConnections == 1)
    }

    @Test func theSinksDelayHoldsEachMessage() throws {
        let sink = try Sink(delayMilliseconds: 300)
        let client = SMTPClient(configuration: SMTPConfiguration(url: sink.url))
        let started = Date()
        try client.send(message(to: ["slow@example.com"], body: "slow\r\n"))
        try client.send(message(to: ["slow@example.com"], body: "slow\r\n"))
        #expect(Date().timeIntervalSince(started) >= 0.6)
        #expect(sink.storedMessages().count == 2)
    }

    @Test func concurrentSendersUseAtMostOneConnectionEach() throws {
        let sink = try Sink()
        let client = SMTPClient(configuration: SMTPConfiguration(url: sink.url))
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            for number in 1...4 {
                try? client.send(message(to: ["t\(thread)-\(number)@example.com"], body: "mail\r\n"))
            }
        }
        let stored = sink.storedMessages()
        try #require(stored.count == 12)
        let peers = try Set(stored.map { try #require(sink.envelope($0)["peer"] as? [Any]).last as? Int })
        #expect(peers.count <= 3 && client.keptConnections == peers.count, "peer ports \(peers)")
    }

    @Test func aMessageWithoutAFinalLineBreakIsDeliveredWhole() throws {
        let sink = try Sink()
        let client = SMTPClient(configuration: SMTPConfiguration(url: sink.url))
        try client.send(message(to: ["buyer@example.com"], body: "no final line break"))
        let stored = sink.storedMessages()
        try #require(stored.count == 1)
        #expect(try sink.raw(stored[0]).contains("\r\n\r\nno final line break"))
    }

    @Test(arguments: ["victim@example.com\r\nRCPT TO:<other@example.com>", "a@example.com\n", "a@example.com\r",
                      "a\0@example.com", "a@example.com> NOTIFY=NEVER", "<a@example.com>"])
    func aRecipientWithALineBreakIsRefusedAndNothingArrives(recipient: String) throws {
        let sink = try Sink()
        let client = SMTPClient(configuration: SMTPConfiguration(url: sink.url))
        let error = #expect(throws: SMTPError.self) {
            try client.send(message(to: ["ok@example.com", recipient], body: "hi\r\n"))
        }
        #expect(error?.kind == .invalidAddress)
        #expect(error?.isPermanent == true)
        usleep(200_000)
        #expect(sink.storedMessages().isEmpty)
    }

    @Test func aMessageTheServerRefusesFailsAsRejectedWithItsPermanentReplyCode() throws {
        let sink = try Sink(maxSize: 200)
        let client = SMTPClient(configuration: SMTPConfiguration(url: sink.url))
        let body = String(repeating: "This line makes the message too big.\r\n", count: 50)
        let error = #expect(throws: SMTPError.self) { try client.send(message(to: ["a@example.com"], body: body)) }
        #expect(error?.kind == .rejected)
        #expect(error?.replyCode == 552)
        #expect(error?.isPermanent == true)
        #expect(sink.storedMessages().isEmpty)
    }

    @Test func aSenderWithALineBreakIsRefused() throws {
        let client = SMTPClient(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:1"))
        var mail = message(to: ["buyer@example.com"], body: "hi\r\n")
        mail.from = "noreply@handoff.test\r\nDATA"
        let error = #expect(throws: SMTPError.self) { try client.send(mail) }
        #expect(error?.kind == .invalidAddress)
    }

    @Test func aMessageWithoutRecipientsIsRefused() {
        let client = SMTPClient(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:1"))
        let error = #expect(throws: SMTPError.self) { try client.send(message(to: [], body: "hi\r\n")) }
        #expect(error?.kind == .invalidAddress)
    }

    @Test func aClosedPortFailsWithConnectFailedAndIsWorthRetrying() throws {
        let port = try Shell.freePort()
        let client = SMTPClient(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:\(port)"))
        let error = #expect(throws: SMTPError.self) { try client.send(message(to: ["a@example.com"], body: "hi\r\n")) }
        #expect(error?.kind == .connectFailed)
        #expect(error?.isPermanent == false)
        #expect(error?.message.isEmpty == false)
    }

    @Test(arguments: ["http://127.0.0.1:25", "file:///tmp/mail", "smtp-ish://host"])
    func urlsThatAreNotSMTPAreRefused(url: String) {
        let client = SMTPClient(configuration: SMTPConfiguration(url: url))
        let error = #expect(throws: SMTPError.self) { try client.send(message(to: ["a@example.com"], body: "hi\r\n")) }
        #expect(error?.kind == .invalidURL)
    }
}
