import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Redis
import Testing
import TestSupport
import Workers

/// An organization's auditor URL (issue 16 §1): every new signed head is also delivered there as a signed forward
/// (the forwarding machinery of issue 14), to a real receiver that checks the Ed25519 signature with `openssl`.
@Suite struct AuditorForwardTests {
    /// A migrated database, a Redis of its own, a receiver on 127.0.0.2 (the one allow-listed address, which the
    /// name `auditor.test` is pinned to: an auditor URL names a host, never an address) and the
    /// `audit-head-forward` kind over them.
    final class Setup: @unchecked Sendable {
        let fixture: AuditFixture
        let redis: ScratchRedis
        let redisPool: RedisPool
        let receiver: ForwardReceiver
        let registry: JobRegistry
        let clock = TestClock(Date())

        init() throws {
            fixture = try AuditFixture.migrated()
            redis = try ScratchRedis()
            redisPool = RedisPool(configuration: try RedisConfiguration(url: redis.url, poolSize: 4,
                                                                        commandTimeout: 3))
            receiver = try ForwardReceiver(host: "127.0.0.2",
                                           auditPublicKey: Hex.encode(ChainHeads.signer.key.publicKey.raw))
            let forwarder = Forwarder(settings: Forwarder.Settings(
                allowed: try NetworkAllowList.parse("127.0.0.2/32").get(), timeout: 5,
                pinnedAddresses: ["auditor.test:\(receiver.port):127.0.0.2"]))
            registry = JobRegistry([AuditorForwardJob.kind(forwarder: forwarder)])
        }

        deinit { redisPool.close() }

        /// The receiver's `path` under the pinned name.
        func url(_ path: String) -> String { "http://auditor.test:\(receiver.port)" + path }

        /// `handoff admin <arguments>` with 127.0.0.2 admitted for forwards.
        func admin(_ arguments: [String]) throws -> CommandOutcome {
            try fixture.handoff(["admin"] + arguments, environment: fixture.environment.merging([
                "FORWARD_ALLOWED_NETWORKS": "127.0.0.2/32",
            ]) { $1 })
        }

        /// A new organization (through `handoff admin org create`).
        func organization() throws -> UUID {
            let created = try admin(["org", "create", "--name", "Audited"])
            let object = try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any]
            return try #require(UUID(uuidString: object?["orgId"] as? String ?? ""))
        }

        /// Relays what is due and runs it with one consumer of the `forward` queue.
        func runDue() throws {
            let pool = Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: 2))
            defer { pool.close() }
            _ = try JobRelay(pool: pool, redis: redisPool, registry: registry, clock: clock.function).relayDue()
            let consumer = JobConsumer(queue: AuditorForwardJob.queue, name: "test-\(UUID().uuidString)",
                                       store: fixture.store(), redis: redisPool, registry: registry,
                                       visibilityTimeout: 60, clock: clock.function, blockMilliseconds: 100)
            for _ in 0..<3 { try consumer.step() }
        }

        func jobs(_ org: UUID) throws -> [Job] {
            try JobStore.list(state: nil, org: org, limit: 100, on: fixture.ownerConnection()).reversed()
        }
    }

    @Test func eachNewSignedHeadReachesTheAuditorURLSignedWithTheAuditKey() throws {
        let setup = try Setup()
        let org = try setup.organization()
        let url = setup.url("/audit/heads")
        let set = try setup.admin(["org", "set-auditor-url", "--org", org.uuidString, "--url", url])
        #expect(set.status == .exited(0), "\(set.stderr)")
        #expect(set.stdout == #"{"auditorUrl":""# + url + #"","changed":true,"orgId":""# + org.uuidString.lowercased()
            + "\"}\n")
        let again = try setup.admin(["org", "set-auditor-url", "--org", org.uuidString, "--url", url])
        #expect(again.stdout.contains(#""changed":false"#))

        let store = setup.fixture.store()
        try ChainHeads.append(store, org: org, count: 2)
        let checkpoint = setup.fixture.checkpoint(clock: setup.clock)
        #expect(try checkpoint.signDue() == 1)
        let jobs = try setup.jobs(org)
        #expect(jobs.map(\.kind) == [AuditorForwardJob.name])
        let head = try #require(try ChainHeadStore.latest(org: org, on: setup.fixture.ownerConnection()))
        #expect(jobs.first?.dedupeKey == "audit-head-forward:\(org.uuidString.lowercased()):\(head.orgSeq)")

        try setup.runDue()
        let received = setup.receiver.requests()
        #expect(received.count == 1)
        #expect(received.first?.verdict == "ok")
        #expect(received.first?.path == "/audit/heads")
        #expect(received.first?.body == Array(head.json.canonicalText.utf8))
        #expect(received.first?.header("x-handoff-audit-key-id") == ChainHeads.signer.keyId)
        let done = try setup.jobs(org)
        #expect(done.map(\.state) == [.done])
        #expect(done.first?.outcome == "forwarded: 200")
        // The delivery records no event: one would move the head, to be signed and forwarded again, for ever.
        let history = try store.readHistory(org: org)
        #expect(history.map(\.eventType) == ["OrganizationCreated", "AuditorURLSet", "PaymentRecorded",
                                             "PaymentRecorded"])
        #expect(history[1].data == .object(["url": .string(url)]))
        setup.clock.advance(120)
        #expect(try checkpoint.signDue() == 0)
    }

    @Test func aFailedDeliveryClimbsTheLadderAndAClearedURLSkipsTheDelivery() throws {
        let setup = try Setup()
        let org = try setup.organization()
        let failing = setup.url("/audit/heads?status=500")
        #expect(try setup.admin(["org", "set-auditor-url", "--org", org.uuidString, "--url", failing]).status
            == .exited(0))
        let store = setup.fixture.store()
        try ChainHeads.append(store, org: org, count: 1)
        let checkpoint = setup.fixture.checkpoint(clock: setup.clock)
        #expect(try checkpoint.signDue() == 1)
        try setup.runDue()
        let failed = try #require(try setup.jobs(org).first)
        #expect(failed.state == .pending && failed.attempt == 1 && failed.lastError == "HTTP 500")
        #expect(failed.runAt.timeIntervalSince(setup.clock.now) > 59)

        // Cleared before the retry: the job ends without sending.
        let cleared = try setup.admin(["org", "set-auditor-url", "--org", org.uuidString, "--url", ""])
        #expect(cleared.stdout.contains(#""auditorUrl":null,"changed":true"#))
        setup.clock.advance(61)
        try setup.runDue()
        let skipped = try #require(try setup.jobs(org).first)
        #expect(skipped.state == .done && skipped.outcome == "skipped: the organization has no auditor URL")
        #expect(setup.receiver.requests().count == 1)
        // With no auditor URL the next head makes no job at all.
        try ChainHeads.append(store, org: org, count: 1)
        #expect(try checkpoint.signDue() == 1)
        #expect(try setup.jobs(org).count == 1)
        #expect(try store.readHistory(org: org).filter { $0.eventType == AuditorURLSet.eventType }.map(\.data)
            == [.object(["url": .string(failing)]), .object(["url": .null])])
    }

    @Test func setAuditorURLRefusesAnUnknownOrgAndAURLTheForwardRulesRefuse() throws {
        let setup = try Setup()
        let org = try setup.organization()
        let cases: [([String], Int32, String)] = [
            (["--org", UUID().uuidString, "--url", "https://auditor.example/heads"], 1, "no organization has this id"),
            (["--org", org.uuidString, "--url", "ftp://auditor.example/heads"], 2, "--url"),
            (["--org", "not-an-org", "--url", "https://auditor.example/heads"], 2, "--org"),
            (["--url", "https://auditor.example/heads"], 2, "--org is required"),
            (["--org", org.uuidString, "--url", "http://10.0.0.7/heads"], 2, "a host name (not an IP address)"),
            (["--org", org.uuidString, "--url", "http://localhost/heads"], 2, "must name a public host"),
        ]
        for (arguments, status, message) in cases {
            let outcome = try setup.fixture.handoff(["admin", "org", "set-auditor-url"] + arguments)
            #expect(outcome.status == .exited(status), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        #expect(try setup.fixture.store().readHistory(org: org).map(\.eventType) == ["OrganizationCreated"])
    }

    @Test func aWorkProcessWithTheCheckpointRoleSignsAndDeliversHeadsAsTheHistoryMoves() throws {
        let setup = try Setup()
        // A real process cannot pin names: the receiver listens on 127.0.0.1, which `localhost` stands for.
        let receiver = try ForwardReceiver(auditPublicKey: Hex.encode(ChainHeads.signer.key.publicKey.raw))
        let allowed = ["FORWARD_ALLOWED_NETWORKS": "127.0.0.1/32,::1/128"]
        let org = try setup.organization()
        let set = try setup.fixture.handoff(["admin", "org", "set-auditor-url", "--org", org.uuidString, "--url",
                                             "http://localhost:\(receiver.port)/audit/heads"],
                                            environment: setup.fixture.environment.merging(allowed) { $1 })
        #expect(set.status == .exited(0), "\(set.stderr)")
        let environment = setup.fixture.environment.merging(allowed) { $1 }.merging([
            "REDIS_URL": setup.redis.url, "HANDOFF_AUDIT_SIGNING_KEY": ChainHeads.seedText,
            "CHECKPOINT_INTERVAL_SECONDS": "1", "LOG_LEVEL": "warning",
        ]) { $1 }
        let worker = try ChildProcess([try HandoffBinary.path(), "work", "--only", "checkpoint,relay,forward"],
                                      environment: environment)
        defer {
            worker.signal(SIGTERM)
            _ = try? worker.wait(timeout: 20)
        }
        func waitFor(_ count: Int) -> Bool {
            for _ in 0..<300 {
                if receiver.requests().count >= count { return true }
                usleep(50_000)
            }
            return false
        }
        #expect(waitFor(1), "\(worker.output())")
        try ChainHeads.append(setup.fixture.store(), org: org, count: 3)
        #expect(waitFor(2), "\(worker.output())")
        let received = receiver.requests()
        #expect(received.allSatisfy { $0.verdict == "ok" }, "\(received.map(\.verdict))")
        let seqs = try received.map { try ChainHead(json: try EventJSON.parse($0.body)).orgSeq }
        #expect(seqs.prefix(2) == [2, 5])
        let heads = try ChainHeads.heads(org, on: setup.fixture.ownerConnection())
        #expect(heads.map(\.orgSeq) == [2, 5])
        #expect(heads[1].signedAt > heads[0].signedAt)
    }
}
