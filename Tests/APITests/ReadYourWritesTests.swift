import API
import Commands
import Foundation
import HTTPServer
import Postgres
import Redis
import Telemetry
import Testing
import TestSupport

/// `DATABASE_READ_URL` through the API edge (issue 19): a key reads the payment it just recorded although the replica
/// applies 4 s late — in the entitlement lookup, the events feed and the handoff report — while keys that wrote
/// nothing read the replica: another project's (the org's feed without the payment yet) and a second key of the same
/// project (its handoff report without it).
@Suite struct ReadYourWritesTests {
    @Test(.timeLimit(.minutes(2)))
    func aKeyReadsThePaymentItJustRecordedWhileAnotherKeyReadsTheLaggingReplica() throws {
        let primary = try ScratchPostgres()
        let database = try primary.migratedDatabase()
        let (org, project, writerKey) = try database.tenant()
        // A second key of the writer's project, which writes nothing: the project's handoff report from the replica.
        let colleague = try database.admin(["key", "create", "--project", project]).json()
        let colleagueKey = try #require(colleague["secretKey"] as? String)
        let reader = try database.admin(["project", "create", "--org", org, "--name", "Reader"]).json()
        let readerKey = try #require(reader["secretKey"] as? String)
        let standby = try ScratchStandby(primaryPort: primary.port, applyDelayMilliseconds: 4000)

        let pool = Pool(configuration: PostgresConfiguration(url: database.appURL, poolSize: 2))
        let replica = Pool(configuration: PostgresConfiguration(
            url: "postgresql://handoff_app@127.0.0.1:\(standby.port)/handoff", poolSize: 2, connectTimeout: 2))
        let redis = RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL(), poolSize: 2))
        let reads = ReadRouting(primary: pool, replica: replica, positions: RedisWritePositions(redis: redis))
        let responder = APIResponder(environment: Environment(
            model: WriteModel(pool: pool, secrets: TestIdentity.secrets(), reads: reads), redis: redis,
            metrics: Metrics(), logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)),
            s2sLimit: TestIdentity.uniqueLimit(count: 100), authFailureLimit: TestIdentity.uniqueLimit(count: 20)))

        let guid = "ryw-" + UUID().uuidString.lowercased()
        let payment = #"{"guid":"\#(guid)","paymentId":"p-1","amount":499,"currency":"USD","productId":"pro","#
            + #""entitlement":"pro","expiresAt":null}"#
        let paid = responder.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: writerKey, body: payment))
        #expect(paid.status == 200, "\(bodyText(paid))")

        // The other key first (the replica, at once), then the writer's reads (each may wait up to 0.5 s for the
        // replica before it goes to the primary): all well inside the replica's 4 s.
        let path = "/s2s/v1/users/\(guid)/entitlements"
        let other = responder.respond(to: s2sRequest(.get, path, key: readerKey))
        #expect(other.status == 200)
        #expect(bodyText(other) == #"{"active":false,"entitlements":[],"guid":"\#(guid)"}"#)
        let otherFeed = responder.respond(to: s2sRequest(.get, "/s2s/v1/events", key: readerKey))
        #expect(otherFeed.status == 200)
        #expect(!bodyText(otherFeed).contains(#""paymentId":"p-1""#), "\(bodyText(otherFeed))")
        let colleagueReport = responder.respond(to: s2sRequest(.get, "/s2s/v1/reports/handoff", key: colleagueKey))
        #expect(colleagueReport.status == 200)
        #expect(!bodyText(colleagueReport).contains("p-1"), "\(bodyText(colleagueReport))")

        let own = responder.respond(to: s2sRequest(.get, path, key: writerKey))
        #expect(own.status == 200)
        #expect(bodyText(own).contains(#""paymentId":"p-1""#), "\(bodyText(own))")
        let ownFeed = responder.respond(to: s2sRequest(.get, "/s2s/v1/events", key: writerKey))
        #expect(ownFeed.status == 200)
        #expect(bodyText(ownFeed).contains(#""paymentId":"p-1""#), "\(bodyText(ownFeed))")
        let ownReport = responder.respond(to: s2sRequest(.get, "/s2s/v1/reports/handoff", key: writerKey))
        #expect(ownReport.status == 200)
        #expect(bodyText(ownReport).contains(#""paymentId":"p-1""#), "\(bodyText(ownReport))")

        // Once the replica applied the payment, the other key sees it too (from the replica).
        var seen = false
        for _ in 0..<100 where !seen {
            seen = bodyText(responder.respond(to: s2sRequest(.get, path, key: readerKey))).contains("p-1")
            if !seen { usleep(100_000) }
        }
        #expect(seen)
    }
}
