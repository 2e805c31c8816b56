import Commands
import Domain
import EventStore
import Foundation
import Postgres

/// `handoff admin org set-auditor-url --org ID --url URL`: where the organization's new signed chain heads are also
/// delivered (issue 16 §1, docs/audit.md "The auditor URL"); an empty `--url` clears it. The URL is checked like a
/// forward destination's (http or https, a public host unless `FORWARD_ALLOWED_NETWORKS` admits it).
extension AdminCommand {
    static let auditorUsage = "usage: handoff admin org set-auditor-url --org ORG --url URL   (--url \"\" clears it)"

    /// Runs `handoff admin org set-auditor-url <flags>`; prints `{"auditorUrl","changed","orgId"}`.
    static func runSetAuditorURL(_ arguments: [String], environment: [String: String]) -> Int32 {
        let words = "org set-auditor-url"
        do {
            let flags = try Flags(arguments, allowed: ["--org", "--url"])
            let org = try field(OrgID.parse(try flags.required("--org"), field: "--org"))
            let text = try flags.required("--url")
            let url = text.isEmpty ? nil : try field(AppForwardURL.validate(text, field: "--url"))
            guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
            let pool = Pool(configuration: PostgresConfiguration(url: configuration.databaseURL, poolSize: 1))
            defer { pool.close() }
            let command = SetAuditorURL(log: EventLog(pool: pool, projections: ProjectionRegistry.service),
                                        forwardAddresses: ForwardAddresses(
                                            allowed: configuration.forwardAllowedNetworks))
            let changed = try command.run(org: org, url: url, field: "--url",
                                          metadata: EventMetadata(actor: .admin("cli")))
            let answer: EventJSON = .object([
                "orgId": .string(org.description), "auditorUrl": url.map { .string($0.text) } ?? .null,
                "changed": .bool(changed),
            ])
            print(answer.canonicalText)
            return 0
        } catch let error as UsageError {
            Subcommands.printError("handoff admin \(words): \(error.message)\n\(auditorUsage)")
            return 2
        } catch let refusal as Refusal {
            Subcommands.printError("handoff admin \(words): \(refusal.message)")
            return refusal.kind == .invalid ? 2 : 1
        } catch {
            Subcommands.printError("handoff admin \(words): \(error)")
            return 1
        }
    }
}
