import Foundation
import Service
import Testing

/// `HANDOFF_AUDIT_SIGNING_KEY` and `CHECKPOINT_INTERVAL_SECONDS` (issue 16 §1): read once, refused naming the
/// variable, never echoed.
@Suite struct AuditConfigurationTests {
    @Test func theAuditKeyIsA32ByteSeedAndTheIntervalDefaultsToAMinute() throws {
        let unset = try Configuration(environment: [:])
        #expect(unset.auditSigningKey == nil && unset.checkpointIntervalSeconds == 60)
        let seed = String(repeating: "B", count: 43)
        let set = try Configuration(environment: ["HANDOFF_AUDIT_SIGNING_KEY": seed,
                                                  "CHECKPOINT_INTERVAL_SECONDS": "5"])
        #expect(set.auditSigningKey?.bytes.count == 32 && set.checkpointIntervalSeconds == 5)
        #expect(!"\(set)".contains(seed))
        #expect(Configuration.variables.contains { $0.name == "HANDOFF_AUDIT_SIGNING_KEY" })
        #expect(Configuration.variables.contains {
            $0.name == "CHECKPOINT_INTERVAL_SECONDS" && $0.defaultValue == "60"
        })
    }

    @Test(arguments: [
        ("HANDOFF_AUDIT_SIGNING_KEY", String(repeating: "C", count: 42)),
        ("HANDOFF_AUDIT_SIGNING_KEY", String(repeating: "C", count: 64)),
        ("HANDOFF_AUDIT_SIGNING_KEY", "not base64url!"),
        ("CHECKPOINT_INTERVAL_SECONDS", "0"),
        ("CHECKPOINT_INTERVAL_SECONDS", "86401"),
        ("CHECKPOINT_INTERVAL_SECONDS", "a minute"),
    ])
    func aBadValueIsRefusedNamingTheVariable(name: String, value: String) {
        do {
            _ = try Configuration(environment: [name: value])
            Issue.record("accepted \(name)=\(value)")
        } catch {
            #expect("\(error)".hasPrefix("\(name): "), "\(error)")
            if name == "HANDOFF_AUDIT_SIGNING_KEY" { #expect(!"\(error)".contains(value)) }
        }
    }
}
