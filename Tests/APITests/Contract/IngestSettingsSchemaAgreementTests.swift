@testable import API
import Domain
import Foundation
import Testing

/// The schemas of the ingest settings and the Meta key (issue 20) against their rules, on both sides of the edge: a
/// generated client sends nothing the server refuses, and the server takes nothing the document rules out.
@Suite struct IngestSettingsSchemaAgreementTests {
    let check = SchemaCheck()

    /// The `ingest` change schema's member at `path` (its items when `list`) accepts a text exactly when the rule
    /// of `name` takes it (as a one-item list when `list`).
    private func agree(_ path: [String], _ name: String, list: Bool, _ values: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let json = (try? JSONSerialization.jsonObject(with: Data(IngestSettingsSchemas.change.json.bytes))) ?? [:]
        var schema = json as? [String: Any] ?? [:]
        for key in path {
            schema = (schema["properties"] as? [String: Any])?[key] as? [String: Any] ?? [:]
        }
        if list { schema = schema["items"] as? [String: Any] ?? [:] }
        for value in values {
            let typed: IngestSettingsChange.Value = list ? .list([value]) : .text(value)
            let ruled = if case .success = IngestSettingsChange.apply([name: typed], to: .defaults, field: { $0 }) {
                true
            } else {
                false
            }
            #expect(check.accepts(value, schema) == ruled, "\(path) \(value.debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func listItemsHostsAndThePathPrefix() {
        let item = String(repeating: "é", count: 128)
        for (path, name) in [(["events", "blocked"], "blocked-events"), (["screens", "exclude"], "exclude-screens"),
                             (["recording", "maskAnchors"], "recording-mask-anchors")] {
            agree(path, name, list: true, ["a", item, item + "é", "", "a,b", "a\tb", "a\u{7F}", "😀", "Pay*", " x "])
        }
        agree(["links", "hosts"], "link-hosts", list: true, [
            "go.example.com", "a", "a-b.c", "-a", "a-", "A.b", "a..b", "a_b", "é", "a.",
            String(repeating: "a", count: 63), String(repeating: "a", count: 64),
            Array(repeating: String(repeating: "a", count: 63), count: 4).joined(separator: "."),
            Array(repeating: String(repeating: "a", count: 63), count: 3).joined(separator: ".") + "."
                + String(repeating: "a", count: 61),
        ])
        agree(["links", "pathPrefix"], "link-path-prefix", list: false, [
            "/", "/app", "/a/b_c~d.e-f", "app", "", "/a b", "/é", "/%41", "/" + String(repeating: "a", count: 255),
            "/" + String(repeating: "a", count: 256),
        ])
    }

    @Test func theMetaKey() {
        let json = (try? JSONSerialization.jsonObject(with: Data(ContractFields.metaInstallReferrerKey.json.bytes)))
            ?? [:]
        for value in [String(repeating: "a", count: 64), String(repeating: "F", count: 64),
                      String(repeating: "a", count: 63), String(repeating: "a", count: 65),
                      String(repeating: "g", count: 64), "", String(repeating: "é", count: 64)] {
            let ruled = if case .success = AppSecretKind.metaInstallReferrerKey.parse(value, field: "k") {
                true
            } else {
                false
            }
            #expect(check.accepts(value, json) == ruled, "\(value)")
        }
    }
}
