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
/// address, its keyed hash or its ciphertexts — except where docs/personal-data.md "Erasure" says they stay, which
/// this test names exactly — while `handoff audit verify` and docs/audit_verify.py still pass.
@Suite struct ErasureSearchTests {
    @Test func anErasedBuyerLeavesNoAddressHashOrCiphertextBehindAndTheChainStillVerifies() throws {
        let logPath = try TestEnvironment.scratchFolder() + "/erasure-\(UInt64.random(in: 0...UInt64.max)).log"
        let descriptor = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        let flow = try EmailRecoveryFlow(logger: Logger(level: .debug, descriptor: descriptor))
        let org = flow.tenant.org
        let address = "Erase.Me.\(UInt32.random(in: 0...UInt32.max))@Example.com"
        let hash = LookupHash.email(address, pepper: TestIdentity.secrets().lookupPepper)

        // The buyer: created with the address, a payment (two codes), a recovery request mailed (gap, address key),
        // the address attached to the payment too, and a fingerprint row.
        let guid = try flow.buyerWithPayment(email: address)
        let second = flow.api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: flow.tenant.key, body:
            PaymentTests.body(guid: guid, paymentId: "pi_2", extra: #","email":"\#(address.lowercased())""#)))
        #expect(second.status == 200, "\(bodyText(second))")
        #expect(flow.request(flow.body(email: address)).status == 204)
        try flow.work(jobs: 1)
        #expect(flow.sink.messages().count == 1)
        let owner = try flow.fixture.ownerConnection()
        try owner.query("""
            INSERT INTO fingerprints (org_id, payment_id, project_id, guid, screen, ip_hash, paid_at, expires_at,
                                      recorded_at)
            VALUES ($1::uuid, 'pi_1', $2::uuid, $3, '393x852', $4, now(), now() + interval '2 hours', now())
            """, [.text(org), .text(flow.tenant.project), .text(guid), .text(String(repeating: "ab", count: 32))])

        // What erasure must remove: the sealed values of the buyer and the address, the wrapped keys.
        let sealed = try ciphertexts(owner, org: org, guid: guid, hash: hash)
        #expect(sealed.count >= 5, "\(sealed.count)")
        let wrapped = try owner.query("""
            SELECT encode(wrapped_key, 'hex') AS key FROM subject_keys
            WHERE org_id = $1::uuid AND subject_id IN ($2, $3)
            """, [.text(org), .text(guid), .text("email:" + hash)]).rows.map { try $0.string("key") }
        #expect(wrapped.count == 2)
        #expect(try tablesHolding(hash, owner).contains("buyer_emails"))
        #expect(try tablesHolding(hash, owner).contains("recovery_mail_gaps"))

        let erased = flow.api.respond(to: s2sRequest(.post, "/s2s/v1/users/\(guid)/erasure", key: flow.tenant.key))
        #expect(erased.status == 202, "\(bodyText(erased))")
        let erasureId = try #require(jsonObject(erased)["erasureId"] as? String)
        #expect(bodyText(erased) == #"{"erasureId":"\#(erasureId)","guid":"\#(guid)"}"#)

        // Every table but the log: nothing, except the destroyed address key's id (`email:<hash>`, a tombstone that
        // keeps anything new from being sealed for the address).
        let needles = [address.lowercased(), hash] + sealed + wrapped
        for table in try tables(owner) where table != "events" {
            for row in try owner.query("SELECT t::text AS row FROM \"\(table)\" t").rows {
                let text = try row.string("row").lowercased()
                let tombstone = table == "subject_keys" && text.contains("email:" + hash)
                for needle in needles where !(tombstone && needle == hash) {
                    #expect(!text.contains(needle.lowercased()), "\(table): \(text)")
                }
            }
        }
        #expect(try owner.query("SELECT count(*) AS n FROM subject_keys WHERE org_id = $1::uuid AND subject_id "
            + "IN ($2, $3) AND wrapped_key IS NULL AND destroyed_at IS NOT NULL",
            [.text(org), .text(guid), .text("email:" + hash)]).rows[0].int("n") == 2)

        // The log: never the address; the keyed hash only as the `emailHash` member of events recorded before the
        // erasure; the ciphertexts only in those events, where they now read as erased.
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
            #expect(!data.lowercased().contains(address.lowercased()) && !metadata.contains(hash))
            let withoutHashMembers = data.replacingOccurrences(of: #""emailHash": "\#(hash)""#, with: "")
            #expect(!withoutHashMembers.contains(hash), "\(type): \(data)")
            if seq >= erasureSeq { #expect(!sealed.contains { data.contains($0) } && !data.contains(hash)) }
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

    /// Every `pd1.` string in the org's events about `guid` or the address, and the codes' sealed copies.
    private func ciphertexts(_ owner: Connection, org: String, guid: String, hash: String) throws -> [String] {
        var found = Set<String>()
        let rows = try owner.query("""
            SELECT data::text AS data FROM events WHERE org_id = $1::uuid
              AND (data->>'guid' = $2 OR data->>'emailHash' = $3)
            UNION ALL SELECT sealed_code FROM handoff_codes WHERE org_id = $1::uuid AND guid = $2
            """, [.text(org), .text(guid), .text(hash)]).rows
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
