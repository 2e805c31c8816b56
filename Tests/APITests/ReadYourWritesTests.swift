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
/// applies 2 s late, while another key of the same org, which wrote nothing, reads the replica.
@Suite struct ReadYourWritesTests {
    @Test(.timeLimit(.minutes(2)))
    func aKeyReadsThePaymentItJustRecordedWhileAnotherKeyReadsTheLaggingReplica() throws {
        let primary = try ScratchPostgres()
        let database = try primary.migratedDatabase()
        let (org, _, writerKey) = try database.tenant()
        let reader = try database.admin(["project", "create", "--org", org, "--name", "Reader"]).json()
        let readerKey = try #require(reader["secretKey"] as? String)
        let standby = try ScratchStandby(primaryPort: primary.port, applyDelayMilliseconds: 2000)

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

        let path = "/s2s/v1/users/\(guid)/entitlements"
        let own = responder.respond(to: s2sRequest(.get, path, key: writerKey))
        #expect(own.status == 200)
        #expect(bodyText(own).contains(#""paymentId":"p-1""#), "\(bodyText(own))")
        let other = responder.respond(to: s2sRequest(.get, path, key: readerKey))
        #expect(other.status == 200)
        #expect(bodyText(other) == #"{"active":false,"entitlements":[],"guid":"\#(guid)"}"#)

        // Once the replica applied the payment, the other key sees it too (from the replica).
        var seen = false
        for _ in 0..<50 where !seen {
            seen = bodyText(responder.respond(to: s2sRequest(.get, path, key: readerKey))).contains("p-1")
            if !seen { usleep(100_000) }
        }
        #expect(seen)
    }
}
