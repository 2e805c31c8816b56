@testable import API
import Commands
import Dispatch
import Domain
import EventStore
import Foundation
import HTTPClient
import Synchronization
import Testing
import TestSupport
@testable import Workers

/// The recovery mail as a two-phase job (issue 14, docs/jobs.md): codes are minted and the address reserved before
/// SMTP runs, with no transaction open during SMTP; `RecoveryMailSent` is recorded only after the server accepted the
/// mail, and a failed attempt releases the address.
@Suite struct EmailRecoveryTwoPhaseTests {
    typealias Flow = EmailRecoveryFlow

    private static func gap(_ flow: Flow) throws -> (lastMail: Double, reservedBy: Int?) {
        guard let row = try flow.fixture.ownerConnection().query("""
            SELECT extract(epoch FROM last_mail_at)::float8 AS last, reserved_by_job FROM recovery_mail_gaps
            """).rows.first else { return (0, nil) }
        return (try row.double("last"), row.isNull("reserved_by_job") ? nil : try row.int("reserved_by_job"))
    }

    private static func recoveryCodes(_ flow: Flow) throws -> Int {
        try flow.fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM handoff_codes WHERE source = 'recovery'").rows[0].int("n")
    }

    @Test func aMailIsRecordedAsSentOnlyOnceSMTPAcceptedItAndAFailedAttemptReleasesTheAddress() throws {
        let port = try Shell.freePort()
        let flow = try Flow(smtp: SMTPConfiguration(url: "smtp://127.0.0.1:\(port)", connectTimeout: 1,
                                                    totalTimeout: 3))
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.dispatchAndRelay(jobs: 1)
        // Nothing listens on the SMTP port: the attempt fails after the claim committed its code.
        #expect(try flow.consumer.step() == 1)
        let failed = try #require(try flow.jobs().first)
        #expect(failed.state == .pending && failed.attempt == 1 && failed.lastError == "SMTP connectFailed")
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 0)
        #expect(try Self.recoveryCodes(flow) == 1)
        let released = try Self.gap(flow)
        #expect(released.lastMail == 0 && released.reservedBy == nil)

        // The server is back on its port: the retry mints a fresh code, sends the one mail, then records it.
        let sink = try SMTPSink(port: port)
        flow.advance(RecoveryMailJob.retryDelays[0])
        #expect(try flow.relay.relayDue() == 1)
        #expect(try flow.consumer.step() == 1)
        let done = try #require(try flow.jobs().first)
        #expect(done.state == .done && done.outcome == "sent", "\(done)")
        let mails = sink.messages()
        try #require(mails.count == 1)
        let code = try #require(RecoveryMail.code(RecoveryMail.textPart(mails[0])))
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 1)
        let mailedHash = try flow.fixture.ownerConnection().query(
            "SELECT data->>'codeHash' AS hash FROM events WHERE event_type = 'RecoveryMailSent'"
        ).rows[0].string("hash")
        #expect(mailedHash == LookupHash.of(Array(code.utf8), kind: "code",
                                            pepper: TestIdentity.secrets().lookupPepper))
        #expect(try Self.recoveryCodes(flow) == 2)
        let moved = try Self.gap(flow)
        #expect(moved.lastMail == flow.clock.now.timeIntervalSince1970 && moved.reservedBy == nil)
    }

    @Test func whileOneMailToAnAddressIsOnItsWayASecondJobForItWaitsAndNoTransactionIsOpen() throws {
        // An SMTP server that accepts the connection and never greets: the first mail hangs until its timeout.
        let silent = try CanaryListener()
        let flow = try Flow(smtp: SMTPConfiguration(url: "smtp://127.0.0.1:\(silent.port)", connectTimeout: 1,
                                                    totalTimeout: 3))
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        for _ in 0..<2 { #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204) }
        try flow.dispatchAndRelay(jobs: 2)
        let jobs = try flow.jobs()
        try #require(jobs.count == 2)
        let entries = try jobs.map { JobStream.Entry(id: try #require($0.streamEntry), jobId: $0.id) }

        let background = DispatchGroup()
        let first = Mutex<JobConsumer.Result?>(nil)
        DispatchQueue.global().async(group: background) {
            let result = try? flow.consumer.handle(entries[0])
            first.withLock { $0 = result }
        }
        let deadline = Date().addingTimeInterval(10)
        while try Self.gap(flow).reservedBy != jobs[0].id && Date() < deadline { usleep(20_000) }
        #expect(try Self.gap(flow).reservedBy == jobs[0].id)
        #expect(try flow.fixture.ownerConnection().query("""
            SELECT count(*) AS n FROM pg_stat_activity
            WHERE datname = current_database() AND state LIKE 'idle in transaction%'
            """).rows[0].int("n") == 0)
        let second = JobConsumer(queue: RecoveryMailJob.queue, name: "second", store: EventLog(
            pool: flow.pool, projections: ProjectionRegistry.service), redis: flow.redisPool, registry: flow.registry,
            visibilityTimeout: 60, clock: { flow.clock.now }, blockMilliseconds: 100)
        #expect(try second.handle(entries[1]) == .failed)
        let waiting = try flow.jobs()[1]
        #expect(waiting.state == .pending)
        #expect(waiting.lastError == "another recovery mail to this address is on its way")
        #expect(try Self.recoveryCodes(flow) == 1)

        background.wait()
        #expect(first.withLock { $0 } == .failed)
        #expect(try flow.jobs()[0].lastError == "SMTP timeout")
        #expect(try Self.gap(flow).reservedBy == nil)
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 0)
    }
}
