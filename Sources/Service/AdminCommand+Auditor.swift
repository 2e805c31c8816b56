import Commands
import Domain
import Foundation

/// `handoff admin org set-auditor-url --org ID --url URL`: where the organization's new signed chain heads are also
/// delivered (issue 16 §1, docs/audit.md "The auditor URL"); an empty `--url` clears it. The URL is checked like a
/// forward destination's (http or https, a public host unless `FORWARD_ALLOWED_NETWORKS` admits it).
extension AdminCommand {
    static let auditorUsage = "usage: handoff admin org set-auditor-url --org ORG --url URL   (--url \"\" clears it)"

    /// Runs `handoff admin org set-auditor-url <flags>`; prints `{"auditorUrl","changed","orgId"}`.
    static func runSetAuditorURL(_ arguments: [String], environment: [String: String]) -> Int32 {
        runSubcommand("org set-auditor-url", usage: auditorUsage, environment: environment, parse: {
            let flags = try Flags(arguments, allowed: ["--org", "--url"])
            let org = try field(OrgID.parse(try flags.required("--org"), field: "--org"))
            let text = try flags.required("--url")
            return (org, text.isEmpty ? nil : try field(AppForwardURL.validate(text, field: "--url")))
        }) { (parsed: (OrgID, AppForwardURL?), session) in
            let (org, url) = parsed
            let command = SetAuditorURL(log: session.log, forwardAddresses: ForwardAddresses(
                allowed: session.configuration.forwardAllowedNetworks))
            let changed = try command.run(org: org, url: url, field: "--url",
                                          metadata: EventMetadata(actor: .admin("cli")))
            let answer: EventJSON = .object([
                "orgId": .string(org.description), "auditorUrl": url.map { .string($0.text) } ?? .null,
                "changed": .bool(changed),
            ])
            print(answer.canonicalText)
            return 0
        }
    }
}
