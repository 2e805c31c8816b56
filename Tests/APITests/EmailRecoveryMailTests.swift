@testable import API
import Commands
import Domain
import EventStore
import Foundation
import Testing
import TestSupport

/// `POST /public/handoff/email-recovery/request` and the `recovery-mail` worker (issue 6), with real Postgres,
/// Redis and an SMTP sink: who gets a mail, in which language, with what in it, and who gets none.
@Suite struct EmailRecoveryMailTests {
    typealias Flow = EmailRecoveryFlow

    @Test func aBuyerWithAPaymentGetsOneMailAndNoSecondWithinTwentyMinutes() throws {
        let flow = try Flow()
        let guid = try flow.buyerWithPayment(email: "Buyer@Example.com")
        let first = flow.request(flow.body(email: "buyer@example.com"))
        #expect(first.status == 204)
        #expect(first.body.isEmpty)
        try flow.work(jobs: 1)
        let mails = flow.sink.messages()
        let jobs = try flow.jobs().map { ($0.state, $0.outcome, $0.lastError) }
        try #require(mails.count == 1, "\(jobs)")
        let raw = mails[0]
        #expect(raw.contains("\r\nTo: buyer@example.com\r\n"))
        #expect(RecoveryMail.subject(raw) == "Your purchase: open it in the app")
        let text = RecoveryMail.textPart(raw)
        let code = try #require(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { HandoffCode.parse($0) != nil })
        #expect(text.contains("myapp://handoff?code=\(code)\n"))
        let pageToken = PageToken(masterKey: TestIdentity.secrets().masterKey)
            .seal(try #require(HandoffCode.parse(code)))
        #expect(text.contains("https://handoff.example.com/done/\(pageToken)\n"))
        #expect(text.contains("until 2027-01-18 08:00:00 UTC"))
        // The HTML part carries the same three: the app link, the code, the page link.
        let html = RecoveryMail.htmlPart(raw)
        #expect(html.contains(#"<html lang="en">"#))
        #expect(html.contains(#"<a href="myapp://handoff?code=\#(code)">Open in the app</a>"#))
        #expect(html.contains("<strong>\(code)</strong>"))
        #expect(html.contains(#"<a href="https://handoff.example.com/done/\#(pageToken)">"#))
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 1)
        let sent = try flow.fixture.ownerConnection().query(
            "SELECT data->>'guid' AS guid FROM events WHERE event_type = 'RecoveryMailSent'").rows[0].string("guid")
        #expect(sent == guid)

        // Within 20 minutes: 204 again, the job is done silently, no second mail.
        flow.advance(19 * 60 + 59)
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 2)
        #expect(flow.sink.messages().count == 1)
        #expect(try flow.jobs().last?.outcome
                == "skipped: a recovery mail went to this address less than 20 minutes ago")

        // After 20 minutes the next request mails again, in Russian when asked.
        flow.advance(1)
        #expect(flow.request(flow.body(email: "buyer@example.com"), language: "ru-RU,ru;q=0.9,en;q=0.8").status == 204)
        try flow.work(jobs: 3)
        let later = flow.sink.messages()
        #expect(later.count == 2)
        #expect(RecoveryMail.subject(later.last ?? "") == "Ваша покупка: откройте её в приложении")
        let russian = RecoveryMail.textPart(later.last ?? "")
        let russianCode = try #require(RecoveryMail.code(russian))
        #expect(russian.contains("Откройте эту ссылку на телефоне, где установлено приложение:\n"
            + "myapp://handoff?code=\(russianCode)\n"))
        #expect(russian.contains("Или введите этот код в приложении:\n\n    \(russianCode)\n"))
        #expect(russian.contains("Страница вашей покупки:\nhttps://handoff.example.com/done/"))
        #expect(russian.contains("Код действует один раз, до "))
        let russianHTML = RecoveryMail.htmlPart(later.last ?? "")
        #expect(russianHTML.contains(#"<html lang="ru">"#))
        #expect(russianHTML.contains(#"<a href="myapp://handoff?code=\#(russianCode)">Открыть в приложении</a>"#))
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 2)
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 3)
    }

    @Test func aProjectWithoutAReturnSchemeGetsAMailWithoutAnAppLink() throws {
        let flow = try Flow(returnScheme: nil)
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 1)
        let mail = try #require(flow.sink.messages().first)
        let text = RecoveryMail.textPart(mail)
        let html = RecoveryMail.htmlPart(mail)
        let code = try #require(RecoveryMail.code(text))
        #expect(!text.contains("handoff?code=") && !text.contains("Open this link"))
        #expect(!html.contains("handoff?code=") && !html.contains("Open in the app"))
        #expect(text.contains("Or enter this code in the app:\n\n    \(code)\n"))
        #expect(html.contains("<strong>\(code)</strong>"))
        #expect(text.contains("Your purchase page:\nhttps://handoff.example.com/done/"))
    }

    @Test(arguments: [
        (nil, "en"), ("", "en"), ("ru", "ru"), ("RU", "ru"), ("ru-RU,ru;q=0.9,en;q=0.8", "ru"),
        ("en-US,en;q=0.9,ru;q=0.8", "en"), ("en;q=0.5,ru;q=0.8", "ru"), ("ru;q=0.5,en", "en"),
        ("ru;q=0.7,en;q=0.7", "ru"), ("en;q=0.7,ru;q=0.7", "en"), ("de-DE,de;q=0.9", "en"), ("fr,ru;q=0.3", "ru"),
        ("ru;q=0", "en"), ("ru;q=0,en;q=0", "en"), ("ru;q=bad,en;q=0.1", "en"),
    ] as [(String?, String)])
    func acceptLanguagePicksRussianOnlyWhenPreferredOverEnglish(header: String?, expected: String) {
        #expect(EmailRecoveryHandler.language(header) == expected)
    }

    @Test func anUnknownAddressAndAnUnknownProjectGet204AndNoMail() throws {
        let flow = try Flow()
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        let unknownAddress = flow.request(flow.body(email: "stranger@example.com"))
        let unknownProject = flow.request(flow.body(email: "buyer@example.com",
                                                    project: "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"))
        #expect(unknownAddress.status == 204 && unknownAddress.body.isEmpty)
        #expect(unknownProject.status == 204 && unknownProject.body.isEmpty)
        #expect(unknownAddress.headers["Content-Type"] == unknownProject.headers["Content-Type"])
        try flow.work(jobs: 2)
        #expect(flow.sink.messages().isEmpty)
        #expect(try flow.jobs().map(\.outcome) == ["skipped: no buyer with a payment has this address",
                                                   "skipped: no buyer with a payment has this address"])
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 1)
        #expect(try flow.events("EmailRecoveryRequested", org: RecoveryStreams.unknownProjectOrg.uuidString) == 1)
        // The address is never stored in clear.
        let clear = try flow.fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM events WHERE data::text ILIKE '%stranger@example.com%'").rows[0].int("n")
        #expect(clear == 0)
    }

    @Test func anotherOrganizationsProjectWithThisBuyersAddressGets204AndNoMail() throws {
        let flow = try Flow()
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        let other = try flow.fixture.tenant(["--return-scheme", "otherapp"])
        let response = flow.request(flow.body(email: "buyer@example.com", project: other.project))
        #expect(response.status == 204 && response.body.isEmpty)
        try flow.work(jobs: 1)
        #expect(flow.sink.messages().isEmpty)
        let job = try #require(try flow.jobs().first)
        #expect(job.state == .done)
        #expect(job.orgId?.uuidString.lowercased() == other.org.lowercased())
        #expect(job.outcome == "skipped: no buyer with a payment has this address")
        #expect(try flow.events("EmailRecoveryRequested", org: other.org) == 1)
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 0)
        #expect(try flow.events("RecoveryMailSent", org: other.org) == 0)
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 0)
        #expect(try flow.fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM handoff_codes WHERE source = 'recovery'").rows[0].int("n") == 0)
    }

    @Test func anErasedAddressIsRecordedWithAPlaceholderLikeAnyRequestAndGetsNoMail() throws {
        let flow = try Flow()
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        let org = try #require(UUID(uuidString: flow.tenant.org))
        let keys = SubjectKeys(masterKey: TestIdentity.secrets().masterKey)
        let owner = try flow.fixture.ownerConnection()
        defer { owner.close() }
        // The address's recovery subject is `email:<its lookup reference>`, made with the buyer's payment.
        let ref = try owner.query(
            "SELECT ref FROM lookup_refs WHERE org_id = $1::uuid AND kind = 'email' AND hash = $2",
            [.text(flow.tenant.org),
             .text(LookupHash.email("buyer@example.com", pepper: TestIdentity.secrets().lookupPepper))])
            .rows[0].string("ref")
        let subject = RecoveryStreams.emailSubject(emailRef: ref)
        try keys.destroy(org: org, subject: subject, on: owner)

        let response = flow.request(flow.body(email: "buyer@example.com"))
        #expect(response.status == 204 && response.body.isEmpty)
        // The same work as for a live address: one event appended, its address a placeholder that reads as erased.
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 1)
        let text = try #require(try owner.query("SELECT data->>'email' AS email FROM events "
            + "WHERE event_type = 'EmailRecoveryRequested'").rows.first).string("email")
        let sealed = try #require(SealedValue(text))
        #expect(try keys.reveal(sealed, field: .email, org: org, subject: subject, on: owner) == .erased)
        try flow.work(jobs: 1)
        #expect(flow.sink.messages().isEmpty)
        #expect(try flow.jobs().map(\.outcome) == ["skipped: the address was erased"])
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 0)
    }

    @Test func withoutIdentitySecretsOnTheWorkerAKnownBuyersJobGoesDeadAndSendsNothing() throws {
        let flow = try Flow(workerSecrets: nil)
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 1)
        #expect(flow.sink.messages().isEmpty)
        let job = try #require(try flow.jobs().first)
        #expect(job.state == .dead)
        #expect(job.lastError == "no recovery code without the identity secrets on this worker")
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 0)
    }
}
