import Commands
import Domain
import EventStore
import Foundation
import Testing
import TestSupport
@testable import Workers

/// The `store-forward` job kind (issue 14) against the Python receiver, which checks both signature schemes from
/// the issue's text: exact bytes, x3 and attribloom signing, the retry ladder on an injected clock, token rotation,
/// the delivery log and `handoff jobs show`.
@Suite struct StoreForwardTests {
    typealias Fixture = ForwardFixture

    /// An App Store notification body as a store might send it: spaces, a line break, key order of its own.
    static let appleBody = Array("{ \"signedPayload\" : \"\(Fixture.jws)\" }\n".utf8)
    /// A RevenueCat-like body with escaped and unescaped non-ASCII.
    static let revenueCatBody = Array(
        #"{"event":{"id":"e1","type":"RENEWAL","note":"caf\u00e9 café"},"api_version":"1.0"}"#.utf8)

    @Test func aVerifiedNotificationMakesOneJobPerDestinationAndAnUnverifiedOneNone() throws {
        let fixture = try Fixture()
        let event = try fixture.receive(Self.appleBody, destinations: ["d2", "d1", "d2"])
        let jobs = try fixture.forwardJobs()
        let eventId = event.eventId.uuidString.lowercased()
        #expect(jobs.map(\.dedupeKey) == ["store-forward:\(eventId):d1", "store-forward:\(eventId):d2"])
        #expect(jobs.first?.payload == .object([
            "eventId": .string(eventId), "stream": .string(StoreStreams.notifications(appId: fixture.appId)),
            "appId": .string(fixture.appId.uuidString.lowercased()), "destinationId": .string("d1"),
            "storeTokenHash": .string(fixture.targets.addToken(Fixture.token)),
        ]))
        #expect(jobs.allSatisfy { $0.kind == StoreForwardJob.name && $0.orgId == fixture.org })
        // Seen again (a dispatcher batch read twice): no second job.
        let again = try fixture.jobs.pool.transaction {
            try JobDispatcher.dispatch([event], registry: fixture.registry, now: Date(), on: $0)
        }
        #expect(again == 0)
        try fixture.receive(Self.appleBody, destinations: ["d1"], verified: false)
        #expect(try fixture.forwardJobs().count == 2)
    }

    @Test func anX3ForwardIsTheExactBodySignedWithTheStoreTokenAndIsRecordedAsForwarded() throws {
        let fixture = try Fixture()
        fixture.targets.set("dev", .init(url: fixture.receiver.base + "/x3/hook?answer=thanks", scheme: .x3))
        let event = try fixture.receive(Self.revenueCatBody, store: .revenuecat, destinations: ["dev"])
        #expect(try fixture.runDue() == 1)
        let received = try #require(fixture.receiver.requests().first)
        #expect(received.verdict == "ok")
        #expect(received.body == Self.revenueCatBody)
        #expect(received.header("content-type") == "application/json")
        #expect(received.header("x-x3-forwarded") == "1")
        #expect(received.header("x-x3-signature") == Fixture.signature(key: Fixture.token, Self.revenueCatBody))
        let job = try #require(try fixture.forwardJobs().first)
        #expect(job.state == .done && job.outcome == "forwarded: 200")
        let events = try fixture.deliveryEvents()
        try #require(events.count == 1)
        #expect(events[0].0 == NotificationForwarded.eventType)
        #expect(events[0].1 == ForwardAttemptFacts(
            appId: fixture.appId.uuidString.lowercased(), notificationEventId: event.eventId.uuidString.lowercased(),
            destinationId: "dev", scheme: "x3", urlHost: "127.0.0.2", status: 200, error: nil,
            durationMs: events[0].1.durationMs, answer: "thanks", attempt: 1, jobId: job.id))

        // The delivery log of the app, and nothing of it for another org.
        let log = DeliveryLog(log: fixture.jobs.store)
        let page = try log.list(org: OrgID(fixture.org), appId: fixture.appId.uuidString.lowercased(), limit: 10,
                                after: nil)
        #expect(page.deliveries.map(\.delivered) == [true] && page.nextAfter == nil)
        #expect(page.deliveries.first?.status == 200 && page.deliveries.first?.answer == "thanks")
        #expect(try log.list(org: OrgID(UUID()), appId: fixture.appId.uuidString.lowercased(), limit: 10,
                             after: nil).deliveries.isEmpty)
    }

    @Test func anAttribloomForwardWrapsTheJWSAsReceivedAndRetriesSendIdenticalBytesAndHeaders() throws {
        let fixture = try Fixture()
        let path = "/v1/app-store/assn/surface-1"
        fixture.targets.set("ea", .init(url: fixture.receiver.base + path + "?status=503", scheme: .attribloom,
                                        secret: Fixture.attribloomSecret))
        try fixture.receive(Self.appleBody, destinations: ["ea"])
        let firstAttemptAt = fixture.clock.now
        #expect(try fixture.runDue() == 1)
        let failed = try #require(try fixture.forwardJobs().first)
        #expect(failed.state == .pending && failed.lastError == "HTTP 503")
        // The receiver is fixed: the retry a minute later goes through.
        fixture.targets.set("ea", .init(url: fixture.receiver.base + path, scheme: .attribloom,
                                        secret: Fixture.attribloomSecret))
        fixture.clock.advance(StoreForwardJob.retryDelays[0])
        #expect(try fixture.runDue() == 1)
        #expect(try fixture.forwardJobs().first?.state == .done)

        let requests = fixture.receiver.requests()
        try #require(requests.count == 2)
        let expectedBody = Array(#"{"signedPayload":"\#(Fixture.jws)"}"#.utf8)
        let timestamp = String(Int(firstAttemptAt.timeIntervalSince1970))
        for request in requests {
            #expect(request.verdict == "ok")
            #expect(request.signedPayload == Fixture.jws)
            #expect(request.body == expectedBody)
            #expect(request.header("content-type") == "application/json")
            #expect(request.header("x-ea-timestamp") == timestamp)
            #expect(request.header("x-ea-signature")
                == Fixture.signature(key: Fixture.attribloomSecret, Array("\(timestamp).".utf8) + expectedBody))
        }
        #expect(requests[0].headers.filter { $0[0].lowercased().hasPrefix("x-") }
            == requests[1].headers.filter { $0[0].lowercased().hasPrefix("x-") })
        #expect(try fixture.deliveryEvents().map(\.0) == [ForwardFailed.eventType, NotificationForwarded.eventType])
    }

    @Test func attribloomTakesAppStoreNotificationsOnly() throws {
        let fixture = try Fixture()
        fixture.targets.set("ea", .init(url: fixture.receiver.base + "/v1/app-store/assn/s", scheme: .attribloom,
                                        secret: Fixture.attribloomSecret))
        try fixture.receive(Self.revenueCatBody, store: .revenuecat, destinations: ["ea"])
        #expect(try fixture.runDue() == 1)
        #expect(try fixture.forwardJobs().first?.outcome == "skipped: attribloom takes App Store notifications only")
        #expect(fixture.receiver.requests().isEmpty)
    }

    @Test func aFailingReceiverWalksTheLadderOnTheInjectedClockThenTheJobIsDeadAndShowsEveryAttempt() throws {
        let fixture = try Fixture()
        fixture.targets.set("dev", .init(url: fixture.receiver.base + "/x3/hook?status=500&answer=busy", scheme: .x3))
        try fixture.receive(Self.appleBody, destinations: ["dev"])
        let id = try #require(try fixture.forwardJobs().first?.id)
        #expect(StoreForwardJob.retryDelays == [60, 300, 1800, 7200, 21600, 86400])
        for (index, delay) in StoreForwardJob.retryDelays.enumerated() {
            #expect(try fixture.runDue() == 1)
            let job = try fixture.jobs.job(id)
            #expect(job.state == .pending && job.attempt == index + 1 && job.lastError == "HTTP 500")
            #expect(abs(job.runAt.timeIntervalSince(fixture.clock.now) - delay) < 0.01)
            // Not due a second before its rung.
            fixture.clock.advance(delay - 1)
            #expect(try fixture.relay() == 0)
            fixture.clock.advance(1)
        }
        #expect(try fixture.runDue() == 1)
        let dead = try fixture.jobs.job(id)
        #expect(dead.state == .dead && dead.attempt == 7)
        let events = try fixture.deliveryEvents()
        #expect(events.map(\.0) == Array(repeating: ForwardFailed.eventType, count: 7))
        #expect(events.map(\.1.attempt) == Array(1...7))
        #expect(events.allSatisfy { $0.1.status == 500 && $0.1.answer == "busy" && $0.1.error == nil })
        #expect(fixture.receiver.requests().count == 7)

        // `handoff jobs show` prints the attempts; `handoff jobs retry` replays the dead job.
        let shown = try fixture.jobs.jobsCommand(["show", String(id)])
        #expect(shown.status == .exited(0), "\(shown.output)")
        let attempts = try #require(jsonLine(shown.output)?["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["attempt"] as? Int } == Array(1...7))
        #expect(attempts.allSatisfy { $0["status"] as? Int == 500 && $0["delivered"] as? Bool == false })
        #expect(attempts.first?["urlHost"] as? String == "127.0.0.2")
        #expect(try fixture.jobs.jobsCommand(["retry", String(id)]).status == .exited(0))
        fixture.targets.set("dev", .init(url: fixture.receiver.base + "/x3/hook", scheme: .x3))
        #expect(try fixture.runDue() == 1)
        #expect(try fixture.jobs.job(id).state == .done)
        #expect(try fixture.deliveryEvents().last.map { ($0.0, $0.1.attempt) }
            .map { "\($0.0) \($0.1)" } == "\(NotificationForwarded.eventType) 1")
    }

    @Test func aForwardQueuedBeforeARotationStillSignsWithTheTokenTheNotificationArrivedUnder() throws {
        let fixture = try Fixture()
        let oldHash = fixture.targets.addToken(Fixture.token)
        fixture.targets.set("dev", .init(url: fixture.receiver.base + "/x3/hook", scheme: .x3))
        try fixture.receive(Self.appleBody, destinations: ["dev"], tokenHash: oldHash)
        // The app's token is rotated before the worker runs: the lookup now also knows the new token.
        let newToken = "tok_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876"
        fixture.targets.addToken(newToken)
        #expect(try fixture.runDue() == 1)
        let received = try #require(fixture.receiver.requests().first)
        #expect(received.verdict == "ok")
        #expect(received.header("x-x3-signature") == Fixture.signature(key: Fixture.token, Self.appleBody))
        #expect(received.header("x-x3-signature") != Fixture.signature(key: newToken, Self.appleBody))
    }

    @Test func aDestinationRemovedBeforeTheForwardEndsTheJobWithoutSending() throws {
        let fixture = try Fixture()
        try fixture.receive(Self.appleBody, destinations: ["gone"])
        #expect(try fixture.runDue() == 1)
        let job = try #require(try fixture.forwardJobs().first)
        #expect(job.state == .done && job.outcome == "skipped: the destination or its store token no longer exists")
        #expect(fixture.receiver.requests().isEmpty)
        #expect(try fixture.deliveryEvents().isEmpty)
    }

    @Test func aDestinationOnAPrivateAddressIsAFailedAttemptAndNeverAConnection() throws {
        let canary = try CanaryListener()
        let fixture = try Fixture(pinnedAddresses: ["hooks.example.test:\(canary.port):127.0.0.1"])
        fixture.targets.set("literal", .init(url: "http://127.0.0.1:\(canary.port)/x3/a", scheme: .x3))
        fixture.targets.set("decimal", .init(url: "http://2130706433:\(canary.port)/x3/a", scheme: .x3))
        fixture.targets.set("pinned", .init(url: "http://hooks.example.test:\(canary.port)/x3/a", scheme: .x3))
        try fixture.receive(Self.appleBody, destinations: ["literal", "decimal", "pinned"])
        #expect(try fixture.runDue() == 3)
        let events = try fixture.deliveryEvents()
        #expect(events.map(\.0) == Array(repeating: ForwardFailed.eventType, count: 3))
        #expect(events.allSatisfy { $0.1.error == "address refused" && $0.1.status == nil })
        #expect(try fixture.forwardJobs().allSatisfy { $0.state == .pending && $0.lastError == "address refused" })
        #expect(canary.connections() == 0)
    }

    @Test func theDeliveryLogPagesNewestFirstAndReplayRebuildsItRowForRow() throws {
        let fixture = try Fixture()
        fixture.targets.set("ok", .init(url: fixture.receiver.base + "/x3/ok", scheme: .x3))
        fixture.targets.set("bad", .init(url: fixture.receiver.base + "/x3/bad?status=418&answer=teapot", scheme: .x3))
        for _ in 0..<2 { try fixture.receive(Self.appleBody, destinations: ["ok", "bad"]) }
        #expect(try fixture.runDue() == 4)
        let log = DeliveryLog(log: fixture.jobs.store)
        let app = fixture.appId.uuidString.lowercased()
        let first = try log.list(org: OrgID(fixture.org), appId: app, limit: 3, after: nil)
        let next = try #require(first.nextAfter)
        let second = try log.list(org: OrgID(fixture.org), appId: app, limit: 3, after: next)
        let all = first.deliveries + second.deliveries
        #expect(all.count == 4 && second.nextAfter == nil)
        #expect(all.map(\.sequence) == all.map(\.sequence).sorted(by: >))
        #expect(Set(all.map(\.eventId)).count == 4)
        #expect(all.filter { !$0.delivered }.allSatisfy { $0.status == 418 && $0.answer == "teapot" })
        #expect(try log.list(org: OrgID(fixture.org), appId: "another-app", limit: 3, after: nil).deliveries.isEmpty)

        let owner = try fixture.jobs.ownerConnection()
        let live = try owner.query("SELECT * FROM store_deliveries ORDER BY org_id, event_id").rows.map(\.values)
        #expect(live.count == 4)
        try owner.execute("DELETE FROM store_deliveries")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("store_deliveries"))
        #expect(try owner.query("SELECT * FROM store_deliveries ORDER BY org_id, event_id").rows.map(\.values) == live)
    }
}
