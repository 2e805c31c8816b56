@testable import API
import Commands
import Domain
import EventStore
import Foundation
import Postgres
import Telemetry
import Testing
import TestSupport

/// Issue 16 §5: after `POST /s2s/v1/users/{guid}/erasure`, no table, no event and no log line holds the buyer's
/// address, its keyed hash, its IP's keyed hash or its ciphertexts — the ciphertexts stay only in the events recorded
/// before the erasure, where they read as erased (docs/personal-data.md "Erasure") — while `handoff audit verify` and
/// docs/audit_verify.py still pass.
@Suite struct ErasureSearchTests {
    @Test func anErasedBuyerLeavesNoAddressHashOrCiphertextBehindAndTheChainStillVerifies() throws {
        let logPath = try TestEnvironment.scratchFolder() + "/erasure-\(UInt64.random(in: 0...UInt64.max)).log"
        let descriptor = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        let flow = try EmailRecoveryFlow(logger: Logger(level: .debug, descriptor: descriptor))
        let org = flow.tenant.org
        let address = "Erase.Me.\(UInt32.random(in: 0...UInt32.max))@Example.com"
        let hash = LookupHash.email(address, pepper: TestIdentity.secrets().lookupPepper)
        let ipHash = try #require(LookupHash.ipAddress("203.0.113.\(UInt8.random(in: 1...254))",
                                                       pepper: TestIdentity.secrets().lookupPepper))

        // The buyer: created with the address, a payment (two codes), a recovery request mailed (gap, address key),
        // the address attached to the payment too, and a fingerprint (its event names the IP by reference).
        let guid = try flow.buyerWithPayment(email: address)
        let second = flow.api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: flow.tenant.key, body:
            PaymentTests.body(guid: guid, paymentId: "pi_2", extra: #","email":"\#(address.lowercased())""#)))
        #expect(second.status == 200, "\(bodyText(second))")
        #expect(flow.request(flow.body(email: address)).status == 204)
        try flow.work(jobs: 1)
        #expect(flow.sink.messages().count == 1)
        let owner = try flow.fixture.ownerConnection()
        let orgId = try #require(UUID(uuidString: org))
        _ = try flow.api.environment.model.log.transact(in: .org(orgId)) { transaction in
            let now = Date()
            let recorded = FingerprintRecorded(
                paymentId: "pi_1", guid: guid, projectId: flow.tenant.project, platform: "ios", screen: "393x852",
                timezone: nil, language: nil,
                ipRef: try LookupRefs.ref(.ip, hash: ipHash, org: orgId, guid: guid, on: transaction.connection),
                userAgent: nil, paidAt: PaymentFields.text(now),
                expiresAt: PaymentFields.text(now.addingTimeInterval(7200)), recordedAt: PaymentFields.text(now))
            try transaction.append(org: orgId, stream: FingerprintStreams.fingerprint(paymentId: "pi_1"),
                                   expectedVersion: .noStream, events: [try NewEvent(recorded)],
                                   metadata: EventMetadata(actor: .system("test")))
        }
        let ref = try owner.query(
            "SELECT ref FROM lookup_refs WHERE org_id = $1::uuid AND kind = 'email' AND hash = $2",
            [.text(org), .text(hash)]).rows[0].string("ref")

        // What erasure must remove: the sealed values of the buyer and the address, the wrapped keys.
        let sealed = try ciphertexts(owner, org: org, guid: guid, ref: ref)
        #expect(sealed.count >= 5, "\(sealed.count)")
        let wrapped = try owner.query("""
            SELECT encode(wrapped_key, 'hex') AS key FROM subject_keys
            WHERE org_id = $1::uuid AND subject_id IN ($2, $3)
            """, [.text(org), .text(guid), .text("email:" + ref)]).rows.map { try $0.string("key") }
        #expect(wrapped.count == 2)
        #expect(try tablesHolding(hash, owner).isSuperset(of: ["buyer_emails", "recovery_mail_gaps", "lookup_refs"]))
        #expect(try tablesHolding(ipHash, owner) == ["fingerprints", "lookup_refs"])
        // The log never held a keyed hash: only the references, which lead nowhere once their rows are gone.
        #expect(try owner.query("""
            SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND (data::text LIKE '%' || $2 || '%'
                OR data::text LIKE '%' || $3 || '%' OR data ? 'emailHash' OR data ? 'ipHash')
            """, [.text(org), .text(hash), .text(ipHash)]).rows[0].int("n") == 0)

        let erased = flow.api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(guid)/erasure", key: flow.tenant.key))
        #expect(erased.status == 202, "\(bodyText(erased))")
        let erasureId = try #require(jsonObject(erased)["erasureId"] as? String)
        #expect(bodyText(erased) == #"{"erasureId":"\#(erasureId)","guid":"\#(guid)"}"#)

        // Every table but the log: nothing at all. The destroyed address key's id is `email:<ref>` (a tombstone), and
        // the reference no longer leads to the hash.
        let needles = [address.lowercased(), hash, ipHash] + sealed + wrapped
        for table in try tables(owner) where table != "events" {
            for row in try owner.query("SELECT t::text AS row FROM \"\(table)\" t").rows {
                let text = try row.string("row").lowercased()
                for needle in needles { #expect(!text.contains(needle.lowercased()), "\(table): \(text)") }
            }
        }
        #expect(try owner.query("SELECT count(*) AS n FROM subject_keys WHERE org_id = $1::uuid AND subject_id "
            + "IN ($2, $3) AND wrapped_key IS NULL AND destroyed_at IS NOT NULL",
            [.text(org), .text(guid), .text("email:" + ref)]).rows[0].int("n") == 2)
        #expect(try owner.query("SELECT count(*) AS n FROM lookup_refs WHERE org_id = $1::uuid", [.text(org)])
            .rows[0].int("n") == 0)

        // The log: never the address nor either keyed hash; the ciphertexts only in the events recorded before the
        // erasure, where they now read as erased.
        let erasedAt = try owner.query("""
            SELECT org_seq FROM events WHERE org_id = $1::uuid AND event_type = 'BuyerErased'
            """, [.text(org)]).rows
        try #require(erasedAt.count == 1)
        let erasureSeq = try erasedAt[0].int("org_seq")
        for row in try owner.query("""
            SELECT org_seq, event_type, data::text AS data, metadata::text AS metadata FROM events
            WHERE org_id = $1::uuid ORDER BY org_seq
            """, [.text(org)]).rows {
            let data = try row.string("data")
            let metadata = try row.string("metadata")
            let seq = try row.int("org_seq")
            let type = try row.string("event_type")
            #expect(!data.lowercased().contains(address.lowercased()), "\(type): \(data)")
            for needle in [hash, ipHash] + wrapped {
                #expect(!data.contains(needle) && !metadata.contains(needle), "\(type): \(data)")
            }
            if seq >= erasureSeq { #expect(!sealed.contains { data.contains($0) }, "\(type): \(data)") }
        }
        let feed = flow.api.respond(to: s2sRequest(.get, "/s2s/v1/events", key: flow.tenant.key))
        #expect(!bodyText(feed).lowercased().contains(address.lowercased()))
        let events = jsonObject(feed)["events"] as? [[String: Any]] ?? []
        let emails = events.compactMap { ($0["data"] as? [String: Any])?["email"] }
        #expect(emails.count >= 2 && emails.allSatisfy { $0 as? [String: Bool] == ["erased": true] }, "\(emails)")
        let recorded = try #require(events.first { $0["event_type"] as? String == "BuyerErased" })
        #expect(recorded["data"] as? [String: String] == ["erasureId": erasureId, "guid": guid])

        // The server's log lines (debug and up) never held any of it.
        let log = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(log.contains("/erasure"))
        for needle in needles { #expect(!log.lowercased().contains(needle.lowercased())) }

        // The chain still verifies, in the database and from the export with the documented verifier.
        let verify = try flow.fixture.database.handoff(["audit", "verify", "--org", org])
        #expect(verify.status == .exited(0), "\(verify.stdout)\(verify.stderr)")
        let export = try flow.fixture.database.handoff(["audit", "export", "--org", org, "--format", "jsonl"])
        #expect(export.status == .exited(0), "\(export.stderr)")
        #expect(export.stdout.contains(#""erasureId":"\#(erasureId)""#))
        #expect(!export.stdout.lowercased().contains(address.lowercased()))
        let exportPath = logPath + ".jsonl"
        try export.stdout.write(toFile: exportPath, atomically: true, encoding: .utf8)
        let script = HandoffBinary.packageRoot() + "/docs/audit_verify.py"
        let output = try Shell.run(["python3", script, exportPath])
        #expect(output.hasPrefix("OK "), "\(output)")
    }

    /// Every `pd1.` string in the org's events about `guid` or the address (lookup reference `ref`), and the codes'
    /// sealed copies.
    private func ciphertexts(_ owner: Connection, org: String, guid: String, ref: String) throws -> [String] {
        var found = Set<String>()
        let rows = try owner.query("""
            SELECT data::text AS data FROM events WHERE org_id = $1::uuid
              AND (data->>'guid' = $2 OR data->>'emailRef' = $3)
            UNION ALL SELECT sealed_code FROM handoff_codes WHERE org_id = $1::uuid AND guid = $2
            """, [.text(org), .text(guid), .text(ref)]).rows
        for row in rows {
            let text = try row.string("data")
            var rest = Substring(text)
            while let start = rest.range(of: "pd1.") {
                let tail = rest[start.lowerBound...]
                let end = tail.firstIndex { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
                found.insert(String(tail[..<(end ?? tail.endIndex)]))
                rest = tail[(end ?? tail.endIndex)...]
            }
        }
        return found.sorted()
    }

    private func tables(_ owner: Connection) throws -> [String] {
        try owner.query("""
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
            ORDER BY table_name
            """).rows.map { try $0.string("table_name") }
    }

    private func tablesHolding(_ needle: String, _ owner: Connection) throws -> Set<String> {
        var holding = Set<String>()
        for table in try tables(owner) where table != "events" {
            for row in try owner.query("SELECT t::text AS row FROM \"\(table)\" t").rows
            where try row.string("row").contains(needle) {
                holding.insert(table)
            }
        }
        return holding
    }
}
