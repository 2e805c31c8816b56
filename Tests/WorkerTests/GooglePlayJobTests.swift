import Commands
import Crypto
import Domain
import EventStore
import Foundation
import Testing
import TestSupport
@testable import Workers

/// The `google-play` job kind (issue 14) against the Play Developer API stand-in, which checks the signed assertion:
/// a verified Google notification's purchase read from the API and applied to the buyer named by
/// `obfuscatedExternalAccountId`, once; retries, refusals and tenant isolation.
@Suite struct GooglePlayJobTests {
    typealias Fixture = GooglePlayJobFixture
    static let order = "GPA.3345-1234-5678-90123"

    static func date(_ text: String) throws -> Date { try #require(RFC3339.parse(text)) }
    static func millis(_ text: String) throws -> Int64 { Int64(try date(text).timeIntervalSince1970 * 1000) }

    @Test func aSubscriptionOfAKnownGuidBecomesThatBuyersPaymentWithTheAPIsOrderPriceAndExpiry() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        let guid = try fixture.buyer(tenant)
        try fixture.peer.addPurchase(package: Fixture.package, token: "sub-1", answer: Fixture.subscriptionAnswer(
            buyer: guid, order: Self.order + "..0", expiry: "2031-01-15T12:00:00.000Z"))
        let body = Fixture.push(Fixture.subscription(type: 4, token: "sub-1"))
        let event = try fixture.receive(body, app: app)
        let eventId = event.eventId.uuidString.lowercased()

        let queued = try fixture.playJobs(tenant.org)
        try #require(queued.count == 1)
        #expect(queued[0].kind == GooglePlayJob.name && queued[0].dedupeKey == "google-play:\(eventId)")
        #expect(queued[0].payload == .object([
            "eventId": .string(eventId), "stream": .string(event.streamId), "appId": .string(app.appId.description),
        ]))
        // Nothing is applied at intake: the notification names only a purchase token.
        #expect(try fixture.events(tenant.org, PaymentRecorded.eventType).isEmpty)

        #expect(try fixture.runDue() == 1)
        let job = try #require(try fixture.playJobs(tenant.org).first)
        #expect(job.state == .done && job.outcome == "activate \(Self.order), buyer known")
        let recorded = try fixture.events(tenant.org, PaymentRecorded.eventType)
        try #require(recorded.count == 1)
        #expect(try recorded[0].decode(PaymentRecorded.self) == PaymentRecorded(
            paymentId: Self.order, guid: guid, projectId: tenant.project.description, amount: 999, currency: "USD",
            productId: "monthly001", entitlement: "monthly001",
            expiresAt: PaymentFields.text(try Self.date("2031-01-15T12:00:00.000Z")),
            paywallId: nil, bodyHash: Hex.encode(SHA256.hash(body)), source: "google"))
        #expect(recorded[0].metadata.requestId == "job-\(job.id)" && recorded[0].metadata.correlationId == eventId)
        let entitlements = try fixture.entitlements(guid, tenant.org, now: fixture.clock.now)
        #expect(entitlements.map { [$0.entitlement, $0.productId, $0.paymentId, $0.status, $0.expiresAt] }
            == [["monthly001", "monthly001", Self.order, "active", "2031-01-15T12:00:00.000Z"]])
        // One API call, with the access token the stand-in issued for the app's signed assertion.
        let stats = try fixture.peer.stats()
        #expect(stats["apiCalls"] as? Int == 1 && stats["tokensIssued"] as? Int == 1)
        #expect((stats["lastAuthorization"] as? String)?.hasPrefix("Bearer ya29.stand-in-") == true)
    }

    @Test func renewalsExtendExpiryEndsAndRevocationRefundsTheSamePayment() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        let guid = try fixture.buyer(tenant)
        func answer(_ order: String, _ expiry: String) throws {
            try fixture.peer.addPurchase(package: Fixture.package, token: "sub-2", answer: Fixture.subscriptionAnswer(
                buyer: guid, order: order, expiry: expiry))
        }
        func notify(_ type: Int, at time: String = "2025-06-15T12:00:00Z") throws {
            try fixture.receive(Fixture.push(Fixture.subscription(type: type, token: "sub-2"),
                                             eventTimeMillis: try Self.millis(time)), app: app)
            #expect(try fixture.runDue() == 1)
        }
        try answer(Self.order, "2031-01-15T12:00:00Z")
        try notify(4)
        try answer(Self.order + "..1", "2031-02-15T12:00:00Z")
        try notify(2)
        // An older answer for a late RECOVERED never shortens the entitlement.
        try answer(Self.order, "2031-01-15T12:00:00Z")
        try notify(1)
        try answer(Self.order + "..1", "2031-02-15T12:00:00Z")
        try notify(13, at: "2031-02-01T00:00:00Z")
        try notify(12, at: "2031-02-02T00:00:00Z")

        #expect(try fixture.playJobs(tenant.org).map(\.outcome) == [
            "activate \(Self.order), buyer known", "activate \(Self.order), buyer known",
            "activate \(Self.order), buyer known", "expire \(Self.order), buyer known",
            "revoke \(Self.order), buyer known",
        ])
        #expect(try fixture.events(tenant.org, PaymentRecorded.eventType).count == 1)
        let renewals = try fixture.events(tenant.org, PaymentRenewed.eventType)
        #expect(try renewals.map { try $0.decode(PaymentRenewed.self).expiresAt }
            == [PaymentFields.text(try Self.date("2031-02-15T12:00:00Z"))])
        let expiries = try fixture.events(tenant.org, PaymentExpired.eventType)
        #expect(try expiries.map { try $0.decode(PaymentExpired.self).expiredAt }
            == [PaymentFields.text(try Self.date("2031-02-01T00:00:00Z"))])
        let refunds = try fixture.events(tenant.org, PaymentRefunded.eventType)
        #expect(try refunds.map { try $0.decode(PaymentRefunded.self).refundedAt }
            == [PaymentFields.text(try Self.date("2031-02-02T00:00:00Z"))])
        #expect(try fixture.entitlements(guid, tenant.org, now: fixture.clock.now).map(\.status) == ["refunded"])
        // The access token was fetched once and reused for the five calls.
        #expect(try fixture.peer.stats()["tokensIssued"] as? Int == 1)
    }

    @Test func aOneTimeProductBecomesALifetimePaymentAndAPendingOneChangesNothing() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        let guid = try fixture.buyer(tenant)
        try fixture.peer.addPurchase(package: Fixture.package, product: "coins_100", token: "otp-1",
                                     answer: Fixture.productAnswer(buyer: guid, order: "GPA.9876-5432-1098-76543",
                                                                   product: "coins_100"))
        try fixture.peer.addPurchase(package: Fixture.package, product: "coins_100", token: "otp-pending",
                                     answer: Fixture.productAnswer(buyer: guid, order: "GPA.1111-2222-3333-44444",
                                                                   product: "coins_100", state: 2))
        try fixture.receive(Fixture.push(Fixture.oneTime(type: 1, sku: "coins_100", token: "otp-pending")), app: app)
        try fixture.receive(Fixture.push(Fixture.oneTime(type: 1, sku: "coins_100", token: "otp-1")), app: app)
        #expect(try fixture.runDue() == 2)
        #expect(Set(try fixture.playJobs(tenant.org).compactMap(\.outcome)) == [
            "no effect: the purchase is not in the purchased state", "activate GPA.9876-5432-1098-76543, buyer known",
        ])
        let recorded = try fixture.events(tenant.org, PaymentRecorded.eventType).map {
            try $0.decode(PaymentRecorded.self)
        }
        try #require(recorded.count == 1)
        // products.get names no price: 0 XXX; no expiry: lifetime.
        #expect(recorded[0].paymentId == "GPA.9876-5432-1098-76543" && recorded[0].guid == guid)
        #expect(recorded[0].amount == 0 && recorded[0].currency == "XXX" && recorded[0].expiresAt == nil)
        #expect(recorded[0].productId == "coins_100" && recorded[0].source == "google")
        #expect(try fixture.entitlements(guid, tenant.org, now: fixture.clock.now).map(\.status) == ["active"])
    }

    @Test func anObfuscatedIdThatIsNoBuyerOfTheOrgRecordsNoPayment() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        for (token, buyer) in [("sub-unknown", "someone-\(UUID().uuidString)"), ("sub-anonymous", nil)] {
            try fixture.peer.addPurchase(package: Fixture.package, token: token, answer: Fixture.subscriptionAnswer(
                buyer: buyer, order: Self.order, expiry: "2031-01-15T12:00:00Z"))
            try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: token)), app: app)
        }
        #expect(try fixture.runDue() == 2)
        #expect(try fixture.playJobs(tenant.org).map(\.outcome)
            == ["activate \(Self.order), buyer unknown", "activate \(Self.order), buyer unknown"])
        // The notifications stay recorded; no payment, no buyer.
        #expect(try fixture.events(tenant.org, StoreNotificationReceived.eventType).count == 2)
        #expect(try fixture.events(tenant.org, PaymentRecorded.eventType).isEmpty)
        #expect(try fixture.events(tenant.org, BuyerCreated.eventType).isEmpty)
        #expect(try fixture.apiCalls() == 2)
    }

    @Test func theAPIFailingIsRetriedOnTheLadderAndThenAppliedOnce() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        let guid = try fixture.buyer(tenant)
        try fixture.peer.addPurchase(package: Fixture.package, token: "sub-flaky", answer: Fixture.subscriptionAnswer(
            buyer: guid, order: Self.order, expiry: "2031-01-15T12:00:00Z"), failures: 2)
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-flaky")), app: app)

        #expect(try fixture.runDue() == 1)
        var job = try #require(try fixture.playJobs(tenant.org).first)
        #expect(job.state == .pending && job.attempt == 1)
        #expect(job.lastError == "the Play Developer API is unavailable (HTTP 503)")
        #expect(job.runAt == fixture.clock.now.addingTimeInterval(GooglePlayJob.retryDelays[0]))
        #expect(try fixture.events(tenant.org, PaymentRecorded.eventType).isEmpty)
        // Not before its time.
        #expect(try fixture.runDue() == 0)
        fixture.clock.advance(GooglePlayJob.retryDelays[0])
        #expect(try fixture.runDue() == 1)
        job = try #require(try fixture.playJobs(tenant.org).first)
        #expect(job.state == .pending && job.attempt == 2)
        fixture.clock.advance(GooglePlayJob.retryDelays[1])
        #expect(try fixture.runDue() == 1)
        job = try #require(try fixture.playJobs(tenant.org).first)
        #expect(job.state == .done && job.outcome == "activate \(Self.order), buyer known")
        #expect(try fixture.events(tenant.org, PaymentRecorded.eventType).count == 1)
        #expect(try fixture.apiCalls() == 3)
    }

    @Test func anUnknownPurchaseAndARefusedKeyAreDeadAtOnce() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "no-such-token")), app: app)
        #expect(try fixture.runDue() == 1)
        var job = try #require(try fixture.playJobs(tenant.org).first)
        #expect(job.state == .dead && job.lastError == "the Play Developer API knows no such purchase (404/410)")
        #expect(try fixture.apiCalls() == 1)

        // A key the stand-in does not know (another private key): its assertion is refused, no API call follows.
        let other = try fixture.tenant()
        let stranger = try fixture.app(other, key: fixture.peer.keyFile(privateKey: RSAPrivateKey.generate()))
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-1")), app: stranger)
        #expect(try fixture.runDue() == 1)
        job = try #require(try fixture.playJobs(other.org).first)
        #expect(job.state == .dead
            && job.lastError == "the token endpoint refused the key's assertion (HTTP 400, invalid_grant)")
        #expect(try fixture.apiCalls() == 1)
    }

    @Test func aKeyWhoseTokenURIIsNotGooglesIsNeverUsed() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let elsewhere = fixture.peer.keyFile().replacingOccurrences(of: fixture.peer.base + "/token",
                                                                     with: "https://oauth2.example.com/token")
        let app = try fixture.app(tenant, key: elsewhere)
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-1")), app: app)
        #expect(try fixture.runDue() == 1)
        let job = try #require(try fixture.playJobs(tenant.org).first)
        #expect(job.state == .dead
            && job.lastError == "the app's service-account key names a token_uri that is not Google's")
        #expect(try fixture.peer.stats()["tokensIssued"] as? Int == 0)
    }

    @Test func theSameJobRunTwiceAndTwoNotificationsOfOnePurchaseApplyItOnce() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        let guid = try fixture.buyer(tenant)
        try fixture.peer.addPurchase(package: Fixture.package, token: "sub-twice", answer: Fixture.subscriptionAnswer(
            buyer: guid, order: Self.order, expiry: "2031-01-15T12:00:00Z"))
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-twice")), app: app)
        #expect(try fixture.runDue() == 1)
        let first = try #require(try fixture.playJobs(tenant.org).first)
        // The job once more, as an operator's replay or a second worker after a lost outcome would run it.
        try fixture.jobs.pool.transaction { connection in
            _ = try JobStore.insert(NewJob(kind: first.kind, orgId: first.orgId, payload: first.payload,
                                           dedupeKey: first.dedupeKey + ":again"),
                                    now: fixture.clock.now, on: connection)
        }
        // And the same purchase told by another notification (Google sends RECOVERED, RESTARTED… with one order).
        try fixture.receive(Fixture.push(Fixture.subscription(type: 1, token: "sub-twice")), app: app)
        #expect(try fixture.runDue() == 2)
        let jobs = try fixture.playJobs(tenant.org)
        #expect(jobs.count == 3 && jobs.allSatisfy { $0.state == .done })
        #expect(try fixture.events(tenant.org, PaymentRecorded.eventType).count == 1)
        #expect(try fixture.events(tenant.org, PaymentRenewed.eventType).isEmpty)
        #expect(try fixture.entitlements(guid, tenant.org, now: fixture.clock.now).count == 1)
    }

    @Test func onlyVerifiedSubscriptionAndOneTimeProductNotificationsMakeJobs() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-1")), app: app, verified: false)
        try fixture.receive(Fixture.push(#""testNotification":{"version":"1.0"}"#), app: app)
        try fixture.receive(Fixture.push(#""voidedPurchaseNotification":{"purchaseToken":"t","orderId":"# +
                                         #""\#(Self.order)","productType":1,"refundType":1}"#), app: app)
        #expect(try fixture.playJobs(tenant.org).isEmpty)
        try fixture.peer.addPurchase(package: Fixture.package, token: "sub-1", answer: Fixture.subscriptionAnswer(
            buyer: nil, order: Self.order, expiry: "2031-01-15T12:00:00Z"))
        let product = Fixture.productAnswer(buyer: nil, order: Self.order, product: "coins_100")
        try fixture.peer.addPurchase(package: Fixture.package, product: "coins_100", token: "otp-1", answer: product)
        try fixture.receive(Fixture.push(Fixture.subscription(type: 3, token: "sub-1")), app: app)
        try fixture.receive(Fixture.push(Fixture.oneTime(type: 2, sku: "coins_100", token: "otp-1")), app: app)
        #expect(try fixture.playJobs(tenant.org).count == 2)
        #expect(try fixture.runDue() == 2)
        // CANCELED (3) and a canceled pending one-time purchase (2) change nothing.
        let outcomes = Set(try fixture.playJobs(tenant.org).map { "\($0.state): \($0.outcome ?? $0.lastError ?? "")" })
        #expect(outcomes == [
            "done: no effect: subscription notification type 3 changes nothing",
            "done: no effect: one-time product notification type 2 changes nothing",
        ], "\(outcomes)")
    }

    @Test func anAppWithoutAServiceAccountKeyEndsSkippedWithoutCallingTheAPI() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let keyless = try fixture.app(tenant, key: .some(nil))
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-1")), app: keyless)
        #expect(try fixture.runDue() == 1)
        let job = try #require(try fixture.playJobs(tenant.org).first)
        #expect(job.state == .done && job.outcome == "skipped: the app has no service-account key")
        #expect(try fixture.peer.stats()["tokensIssued"] as? Int == 0)
        #expect(try fixture.apiCalls() == 0)
    }

    @Test func aWorkerWithoutTheMasterKeyRetriesOnTheLadder() throws {
        let fixture = try Fixture(masterKey: false)
        let tenant = try fixture.tenant()
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-1")), app: try fixture.app(tenant))
        #expect(try fixture.runDue() == 1)
        let job = try #require(try fixture.playJobs(tenant.org).first)
        #expect(job.state == .pending && job.attempt == 1)
        #expect(job.lastError
            == "no HANDOFF_MASTER_KEY on this worker: the app's service-account key cannot be opened")
        #expect(try fixture.apiCalls() == 0)
    }

    @Test func anotherOrgsNotificationReachesNeitherThisOrgsAppNorItsBuyers() throws {
        let fixture = try Fixture()
        let victim = try fixture.tenant()
        let victimApp = try fixture.app(victim)
        let victimGuid = try fixture.buyer(victim)
        let attacker = try fixture.tenant()
        let attackerApp = try fixture.app(attacker)

        // A purchase of the attacker's app that names the victim's buyer: no buyer of the attacker's org.
        try fixture.peer.addPurchase(package: Fixture.package, token: "sub-cross", answer: Fixture.subscriptionAnswer(
            buyer: victimGuid, order: Self.order, expiry: "2031-01-15T12:00:00Z"))
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-cross")), app: attackerApp)

        // A notification in the attacker's log that names the victim's app id: the job finds no such app there, so
        // the victim's key is never opened or used.
        let forged = StoreNotificationReceived(
            appId: victimApp.appId.description, projectId: attacker.project.description, store: "google",
            notificationId: "forged-1", notificationType: "subscriptionNotification",
            subtype: "SUBSCRIPTION_PURCHASED",
            environment: nil, verified: true, storeTokenHash: attackerApp.storeTokenHash,
            body: Data(Fixture.push(Fixture.subscription(type: 4, token: "sub-cross"))).base64EncodedString(),
            destinations: [], guid: nil)
        let events = try fixture.jobs.store.append(
            org: attacker.org.uuid, stream: StoreStreams.notifications(appId: victimApp.appId.uuid),
            expectedVersion: .any, events: [try NewEvent(forged)], metadata: Fixture.metadata)
        try fixture.dispatch(events[0])

        #expect(try fixture.runDue() == 2)
        #expect(Set(try fixture.playJobs(attacker.org).compactMap(\.outcome))
            == ["activate \(Self.order), buyer unknown", "skipped: the app no longer exists"])
        #expect(try fixture.apiCalls() == 1)
        #expect(try fixture.playJobs(victim.org).isEmpty)
        for org in [victim.org, attacker.org] {
            #expect(try fixture.events(org, PaymentRecorded.eventType).isEmpty)
        }
        #expect(try fixture.entitlements(victimGuid, victim.org, now: fixture.clock.now).isEmpty)
    }
}
