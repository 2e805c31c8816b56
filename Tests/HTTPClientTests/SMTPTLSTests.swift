import Foundation
import HTTPClient
import Testing
import TestSupport

/// Mail over STARTTLS and SMTPS against a local TLS sink with a CA of the test's own (issue 14): certificate
/// verification is always on, so without the CA a mail fails — never goes out in clear instead.
@Suite struct SMTPTLSTests {
    static func message(_ subject: String) -> MailMessage {
        MailMessage(from: "noreply@handoff.test", to: ["buyer@example.com"],
                    data: Array("Subject: \(subject)\r\n\r\nHello over TLS.\r\n".utf8))
    }

    @Test func startTLSDeliversWhenTheSinksCAIsTrustedAndFailsWithoutIt() throws {
        let authority = try TestCertificateAuthority()
        let sink = try SMTPSink(tls: .startTLS(authority, required: true))
        try SMTPClient(configuration: SMTPConfiguration(url: sink.url, caFile: authority.caFile))
            .send(Self.message("trusted"))
        #expect(sink.messages().count == 1 && sink.messages()[0].contains("Subject: trusted"))
        #expect(sink.arrivedOverTLS() == [true])

        // Offered STARTTLS with a certificate that does not verify: the session fails, nothing is sent in clear.
        let error = #expect(throws: SMTPError.self) {
            try SMTPClient(configuration: SMTPConfiguration(url: sink.url)).send(Self.message("untrusted"))
        }
        #expect(error?.kind == .tls && error?.isPermanent == false)
        #expect(sink.messages().count == 1)
    }

    @Test func requireTLSAlsoTakesTheTrustedCAAndASinkOfferingTLSOptionallyStillGetsIt() throws {
        let authority = try TestCertificateAuthority()
        let sink = try SMTPSink(tls: .startTLS(authority, required: false))
        try SMTPClient(configuration: SMTPConfiguration(url: sink.url, requireTLS: true, caFile: authority.caFile))
            .send(Self.message("required"))
        try SMTPClient(configuration: SMTPConfiguration(url: sink.url, caFile: authority.caFile))
            .send(Self.message("offered"))
        #expect(sink.arrivedOverTLS() == [true, true])
    }

    @Test func smtpsDeliversWhenTheSinksCAIsTrustedAndFailsWithoutIt() throws {
        let authority = try TestCertificateAuthority()
        let sink = try SMTPSink(tls: .implicit(authority))
        #expect(sink.url.hasPrefix("smtps://"))
        try SMTPClient(configuration: SMTPConfiguration(url: sink.url, caFile: authority.caFile))
            .send(Self.message("implicit"))
        #expect(sink.arrivedOverTLS() == [true])
        let error = #expect(throws: SMTPError.self) {
            try SMTPClient(configuration: SMTPConfiguration(url: sink.url, connectTimeout: 2, totalTimeout: 5))
                .send(Self.message("untrusted"))
        }
        #expect(error?.kind == .tls)
        #expect(sink.messages().count == 1)
    }
}
