import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Service
import Testing
import TestSupport

@Suite struct AuditCommandTests {
    /// Events an auditor's verifier must get exactly right: several streams, non-ASCII and escaped text, nesting,
    /// integers beyond a double's precision, and a null.
    static let tricky: [EventJSON] = [
        .object(["email": .string("grüße@例え.jp"), "note": .string("café 🎉 \u{7F} / end")]),
        .object(["quote": .string("she said \"hi\"\\\n\t\r\u{01}\u{1F}"), "empty": .string("")]),
        .object(["nested": .object(["list": .array([.integer(1), .array([]), .object([:]), .null, .bool(true)]),
                                    "z": .object(["a": .integer(-1)])]),
                 "A": .string("upper before lower"), "é": .string("after z"), "😀": .string("astral key")]),
        .object(["big": .integer(10_000_000_000), "beyondDouble": .integer(9_007_199_254_740_993),
                 "max": .integer(Int64.max), "min": .integer(Int64.min), "price": .string("1.5")]),
        .array([.string("data need not be an object"), .integer(0)]),
    ]

    /// Appends the tricky events plus `plain` more over three streams of `org`.
    private func seed(_ store: EventLog, org: UUID, plain: Int = 5) throws {
        for (index, data) in Self.tricky.enumerated() {
            try store.append(org: org, stream: "buyer,\"\(index % 2)\"", expectedVersion: .any,
                             events: [NewEvent(type: "TrickyRecorded", schemaVersion: index + 1, data: data)],
                             metadata: auditMetadata)
        }
        for number in 0..<plain {
            try store.append(org: org, stream: "payment-\(number % 3)", expectedVersion: .any,
                             events: [NewEvent(type: "PaymentRecorded", data: .object(["amount": .integer(1999)])),
                                      NewEvent(type: "HandoffCodeMinted", data: .object(["ttl": .integer(72)]))],
                             metadata: EventMetadata(actor: .key(prefix: "sk_live_ab12"), requestId: "r\(number)"))
        }
    }

    private func python(_ arguments: [String]) throws -> CommandOutcome {
        try CommandOutcome.run(["python3"] + arguments)
    }

    private var verifierPath: String { HandoffBinary.packageRoot() + "/docs/audit_verify.py" }

    @Test func eventJSONRefusesFractionsSoEveryLanguageAgreesOnNumbers() throws {
        #expect(throws: EventJSON.ParseError.self) { try EventJSON.parse("{\"amount\":1.5}") }
        #expect(throws: EventJSON.ParseError.self) { try EventJSON.parse("1e3") }
        #expect(try EventJSON.parse("10000000000") == .integer(10_000_000_000))
    }

    @Test func aJSONLExportVerifiesWithThePythonScriptAndATamperedLineIsNamed() throws {
        let fixture = try AuditFixture.migrated()
        let (org, other) = (UUID(), UUID())
        let store = fixture.store()
        try seed(store, org: org)
        try seed(store, org: other, plain: 1)

        let export = try fixture.handoff(["audit", "export", "--org", org.uuidString, "--format", "jsonl"])
        #expect(export.status == .exited(0), "\(export.stderr)")
        let lines = export.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 1 + 5 + 10 + 1 + 1 && lines.last == "")
        #expect(export.stderr.contains("15/15"))
        // Each line is canonical JSON: parsing and re-serializing gives it back byte for byte.
        for line in lines.dropLast() { #expect(try EventJSON.parse(line).canonicalText == line) }
        let history = try store.readHistory(org: org)
        let zero = String(repeating: "0", count: 64)
        #expect(lines[0] == #"{"format_version":2,"from_seq":1,"kind":"header","org_id":""#
            + org.uuidString.lowercased() + #"","partial":false,"prev_hash":""# + zero + #""}"#)
        #expect(lines[1..<16] == history.map { AuditExport.json($0).canonicalText }[...])
        #expect(lines[16] == #"{"count":15,"head":null,"kind":"trailer","last_hash":""# + Hex.encode(history[14].hash)
            + #"","last_org_seq":15}"#)
        #expect(try EventJSON.parse(lines[1])["prev_hash"] == .string(zero))

        let verified = try python([verifierPath, export.stdoutPath])
        #expect(verified.status == .exited(0), "\(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.hasPrefix("OK 15 events, org \(org.uuidString.lowercased()), org_seq 1-15, "
            + "last hash \(Hex.encode(history[14].hash))"))

        // An auditor's copy altered in one event's data: the script names that org_seq and fails.
        var tampered = lines
        tampered[4] = tampered[4].replacingOccurrences(of: "10000000000", with: "10000000001")
        #expect(tampered[4] != lines[4])
        let tamperedPath = export.stdoutPath + ".tampered"
        try tampered.joined(separator: "\n").write(toFile: tamperedPath, atomically: true, encoding: .utf8)
        let refused = try python([verifierPath, tamperedPath])
        #expect(refused.status == .exited(1))
        #expect(refused.stdout.contains("BROKEN at org \(org.uuidString.lowercased()) org_seq 4"))

        // A dropped line is a gap at its org_seq.
        var holed = lines
        holed.remove(at: 7)
        try holed.joined(separator: "\n").write(toFile: tamperedPath, atomically: true, encoding: .utf8)
        let gap = try python([verifierPath, tamperedPath])
        #expect(gap.status == .exited(1))
        #expect(gap.stdout.contains("BROKEN at org_seq 7"))

        // --from-seq starts mid-chain, says so in its header, and verifies from the header's prev_hash.
        let tail = try fixture.handoff(["audit", "export", "--org=\(org.uuidString)", "--format=jsonl",
                                        "--from-seq", "12"])
        #expect(tail.status == .exited(0))
        let tailLines = tail.stdout.split(separator: "\n").map(String.init)
        #expect(tailLines[0] == #"{"format_version":2,"from_seq":12,"kind":"header","org_id":""#
            + org.uuidString.lowercased() + #"","partial":true,"prev_hash":""# + Hex.encode(history[10].hash) + #""}"#)
        #expect(Array(tailLines[1..<5]) == Array(lines[12..<16]))
        #expect(tailLines[5] == #"{"count":4,"head":null,"kind":"trailer","last_hash":""#
            + Hex.encode(history[14].hash) + #"","last_org_seq":15}"#)
        let partial = try python([verifierPath, tail.stdoutPath])
        #expect(partial.status == .exited(0), "\(partial.stdout)")
        #expect(partial.stdout.contains("(partial: linked to prev_hash \(Hex.encode(history[10].hash)))"))
    }

    @Test func aCSVExportParsesWithPythonsCSVModuleAndItsManifestCarriesTheHeaderAndTrailer() throws {
        let fixture = try AuditFixture.migrated()
        let org = UUID()
        let store = fixture.store()
        try seed(store, org: org, plain: 3)
        let manifest = try TestEnvironment.scratchFolder() + "/manifest-\(UUID().uuidString)"
        let csv = try fixture.handoff(["audit", "export", "--org", org.uuidString, "--format", "csv",
                                       "--manifest", manifest])
        #expect(csv.status == .exited(0), "\(csv.stderr)")
        #expect(csv.stdout.hasPrefix(AuditExport.csvColumns.joined(separator: ",") + "\r\n"))
        #expect(csv.stdout.hasSuffix("\r\n"))
        let history = try store.readHistory(org: org)
        let lines = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(try EventJSON.parse(lines[0])["kind"] == .string("header"))
        #expect(try EventJSON.parse(lines[1])["last_hash"] == .string(Hex.encode(history.last!.hash)))
        let script = """
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
            print(len(rows), rows[-1]["hash"])
            """
        let parsed = try python(["-c", script, csv.stdoutPath])
        #expect(parsed.status == .exited(0), "\(parsed.stderr)")
        #expect(parsed.stdout == "\(history.count) \(Hex.encode(history.last!.hash))\n")
        let verified = try python([verifierPath, csv.stdoutPath, "--manifest", manifest])
        #expect(verified.status == .exited(0), "\(verified.stdout)")
        #expect(verified.stdout.hasPrefix("OK \(history.count) events"))
        // Without its manifest a CSV export is refused: nothing says where it ends.
        let refused = try python([verifierPath, csv.stdoutPath])
        #expect(refused.status == .exited(1))
        #expect(refused.stdout.hasPrefix("REFUSED"))
    }

    @Test func verifyPrintsASummaryThenNamesTheOrgAndSeqOfARowAlteredBehindTheTrigger() throws {
        let fixture = try AuditFixture.migrated()
        let (tampered, intact) = (UUID(), UUID())
        let store = fixture.store()
        try seed(store, org: tampered, plain: 2)
        try seed(store, org: intact, plain: 1)

        let clean = try fixture.handoff(["audit", "verify"])
        #expect(clean.status == .exited(0))
        #expect(clean.stdout.contains("verified 2 orgs, 16 events"))

        let admin = try fixture.adminConnection()
        try admin.execute("SET session_replication_role = replica")
        try admin.query("UPDATE events SET data = jsonb_set(data, '{amount}', '1') WHERE org_id = $1::uuid "
                        + "AND org_seq = 7", [.text(tampered.uuidString)])
        try admin.execute("RESET session_replication_role")

        let broken = try fixture.handoff(["audit", "verify"])
        #expect(broken.status == .exited(1))
        #expect(broken.stdout.contains("BROKEN org \(tampered.uuidString.lowercased()) at org_seq 7: hash does not"))
        #expect(!broken.stdout.contains(intact.uuidString.lowercased()))
        let one = try fixture.handoff(["audit", "verify", "--org", intact.uuidString])
        #expect(one.status == .exited(0))
        #expect(one.stdout.contains("verified 1 org, 7 events"))
    }

    @Test func badArgumentsExit2WithAMessageNamingTheArgument() throws {
        let fixture = try AuditFixture.migrated()
        let org = UUID().uuidString
        let cases: [([String], String)] = [
            (["audit", "export", "--org", org, "--format", "xml"], "--format must be jsonl or csv, got \"xml\""),
            (["audit", "export", "--format", "jsonl"], "--org is required"),
            (["audit", "export", "--org", org], "--format is required"),
            (["audit", "export", "--org", "not-a-uuid", "--format", "csv"], "--org must be an organization id"),
            (["audit", "verify", "--org", "42"], "--org must be an organization id"),
            (["audit", "export", "--org", org, "--format", "csv", "--from-seq", "0"], "--from-seq must be"),
            (["audit", "export", "--org", org, "--format", "csv", "--from-seq"], "--from-seq needs a value"),
            (["audit", "verify", "--format", "csv"], "unknown argument \"--format\""),
            (["audit", "prove"], "unknown subcommand \"prove\""),
            (["audit", "export", "--org", org, "--format", "jsonl", "--manifest", "m"],
             "--manifest is for --format csv"),
            (["audit", "head"], "--org is required for head"),
            (["audit", "keys", "--org", org], "unknown argument \"--org\""),
            (["audit", "verify", "--head", "h.json"], "--head needs --org"),
            (["audit", "verify", "--org", org, "--keys", "k.json"], "--keys needs --head"),
            (["audit"], "missing subcommand"),
        ]
        for (arguments, message) in cases {
            let outcome = try fixture.handoff(arguments)
            #expect(outcome.status == .exited(2), "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("usage: handoff audit"))
            #expect(outcome.stdout.isEmpty)
        }
        #expect(throws: AuditCommand.UsageError.self) {
            try AuditCommand.parse(["export", "--org", org, "--org", org])
        }
        #expect(try AuditCommand.parse(["export", "--org", org, "--format", "csv", "--from-seq", "3"])
            == .export(org: UUID(uuidString: org)!, format: .csv, fromSeq: 3))
        #expect(try AuditCommand.parse(["export", "--org", org, "--format", "csv", "--manifest", "m.json"])
            == .export(org: UUID(uuidString: org)!, format: .csv, fromSeq: 1, manifest: "m.json"))
        #expect(try AuditCommand.parse(["verify", "--org", org, "--head", "h.json", "--keys", "k.json"])
            == .verify(org: UUID(uuidString: org)!, head: "h.json", keys: "k.json"))
    }

    @Test func theDocumentEmbedsTheVerifierScriptVerbatim() throws {
        let root = HandoffBinary.packageRoot()
        let document = try String(contentsOfFile: root + "/docs/audit.md", encoding: .utf8)
        let script = try String(contentsOfFile: root + "/docs/audit_verify.py", encoding: .utf8)
        let start = try #require(document.range(of: "```python\n"))
        let end = try #require(document.range(of: "```", range: start.upperBound..<document.endIndex))
        #expect(String(document[start.upperBound..<end.lowerBound]) == script)
    }
}
