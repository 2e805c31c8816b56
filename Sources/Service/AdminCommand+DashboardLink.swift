import Commands
import Domain
import Foundation

/// `handoff admin dashboard-link --project P`: a signed link to the project's handoff dashboard, valid one hour,
/// as `POST /s2s/v1/dashboard-links` makes it (docs/diagnostics.md "Dashboard"). Needs `HANDOFF_MASTER_KEY` (the
/// identity secrets) and `PUBLIC_BASE_URL` besides `DATABASE_URL`.
extension AdminCommand {
    static let dashboardLinkUsage = """
        usage: handoff admin dashboard-link --project P
        prints {"expiresAt","token","url"}: the dashboard at <PUBLIC_BASE_URL>/dashboard/<token> for one hour
        """

    /// Runs `handoff admin dashboard-link <arguments>`; the exit status of `run` (1 for an unknown project).
    static func runDashboardLink(_ arguments: [String], environment: [String: String]) -> Int32 {
        runSubcommand("dashboard-link", usage: dashboardLinkUsage, environment: environment, parse: {
            let flags = try Flags(arguments, allowed: ["--project"])
            return try field(ProjectID.parse(try flags.required("--project"), field: "--project"))
        }) { project, session in
            let secrets = try session.identity()
            let configuration = session.configuration
            guard let found = try ProjectLookup(pool: session.pool).publicProject(project) else {
                Subcommands.printError("handoff admin dashboard-link: no project has this id")
                return 1
            }
            let links = DashboardLinks(masterKey: secrets.masterKey, previousMasterKeys: secrets.previousMasterKeys)
            let signed = links.sign(project: project, org: found.orgId, now: Date())
            print(EventJSON.object([
                "url": .string(configuration.publicBaseURL + "/dashboard/" + signed.token),
                "token": .string(signed.token), "expiresAt": .string(PaymentFields.text(signed.expiresAt)),
            ]).canonicalText)
            return 0
        }
    }
}
