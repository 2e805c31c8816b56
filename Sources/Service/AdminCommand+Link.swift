import Commands
import Domain
import EventStore
import Foundation
import Postgres

/// `handoff admin link …`: a project's go links (issue 21, docs/app-links.md), as JSON of the shapes the S2S routes
/// answer. Needs `DATABASE_URL` only; link URLs are on `PUBLIC_BASE_URL`.
extension AdminCommand {
    static let linkUsage = """
        usage: handoff admin link create --project P --fallback-url URL [--ios-app APP] [--android-app APP]
                      [--utm-source S] [--utm-medium M] [--utm-campaign C] [--utm-term T] [--utm-content C]
                      [--code CODE] [--pt PROVIDER_TOKEN] [--ct CAMPAIGN_TOKEN]
               handoff admin link list --project P
               handoff admin link proxy-key --org ORG --domains D[,D…]
               handoff admin link proxy-keys --org ORG
               handoff admin link proxy-key-revoke --org ORG --id PROXY_KEY_ID
        --ios-app, --android-app: apps of the project (the iOS app needs its App Store id for the App Store
        redirect); --code: the short code a proxy key's domain resolves; --pt, --ct: App Store provider and
        campaign tokens; proxy-key: a key (shown once) for the organization's first-party proxy on the domains,
        sent as X-Handoff-Proxy-Key with <prefix>/go/<code> forwarded to /v1/go/<code>; proxy-keys lists the
        organization's keys (never the keys themselves), proxy-key-revoke revokes one
        """

    /// A link subcommand, its arguments checked.
    enum LinkCommand {
        case create(ProjectID, GoLinkDraft)
        case list(ProjectID)
        case proxyKey(OrgID, [String])
        case proxyKeys(OrgID)
        case revokeProxyKey(OrgID, ProxyKeyID)
    }

    /// Runs `handoff admin link <arguments>` (the words after `link`); the exit status of `run`.
    static func runLink(_ arguments: [String], environment: [String: String]) -> Int32 {
        let words = "link " + (arguments.first ?? "")
        do {
            let command = try parseLink(arguments)
            guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
            let pool = Pool(configuration: PostgresConfiguration(url: configuration.databaseURL, poolSize: 1))
            defer { pool.close() }
            let model = LinkModel(log: EventLog(pool: pool, projections: ProjectionRegistry.service))
            let metadata = EventMetadata(actor: .admin("cli"))
            switch command {
            case .create(let project, let draft):
                let link = try model.createLink.run(project: project, org: nil, draft: draft, metadata: metadata)
                print(try encode(link.shared(base: configuration.publicBaseURL)))
            case .list(let project):
                let links = try model.lookup.links(project: project, org: nil)
                print(try encode(["links": links.map { $0.shared(base: configuration.publicBaseURL) }]))
            case .proxyKey(let org, let domains):
                print(try encode(try model.issueProxyKey.run(org: org, domains: domains, metadata: metadata)))
            case .proxyKeys(let org):
                print(try encode(["proxyKeys": try model.proxyKeys.keys(org: org)]))
            case .revokeProxyKey(let org, let id):
                print(try encode(try model.revokeProxyKey.run(org: org, id: id, metadata: metadata)))
            }
            return 0
        } catch let error as UsageError {
            Subcommands.printError("handoff admin \(words): \(error.message)\n\(linkUsage)")
            return 2
        } catch let refusal as Refusal {
            Subcommands.printError("handoff admin \(words): \(refusal.message)")
            return refusal.kind == .invalid ? 2 : 1
        } catch {
            Subcommands.printError("handoff admin \(words): \(error)")
            return 1
        }
    }

    static func parseLink(_ arguments: [String]) throws -> LinkCommand {
        guard let verb = arguments.first else { throw UsageError(message: "a link subcommand is required") }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "create":
            let utmFlags = LinkUTM.members.map { "--utm-\($0)" }
            let flags = try Flags(rest, allowed: ["--project", "--fallback-url", "--ios-app", "--android-app",
                                                  "--code", "--pt", "--ct"] + utmFlags)
            let ios = try flags.values["--ios-app"].map { try field(AppID.parse($0, field: "--ios-app")) }
            let android = try flags.values["--android-app"].map {
                try field(AppID.parse($0, field: "--android-app"))
            }
            var utm: [String: String] = [:]
            for member in LinkUTM.members { utm[member] = flags.values["--utm-\(member)"] }
            var fields = GoLinkDraft.Fields()
            fields.fallbackUrl = "--fallback-url"
            fields.code = "--code"
            fields.utm = "--utm"
            fields.providerToken = "--pt"
            fields.campaignToken = "--ct"
            let draft = try field(GoLinkDraft.parse(
                iosAppId: ios, androidAppId: android, fallbackUrl: try flags.required("--fallback-url"), utm: utm,
                code: flags.values["--code"], providerToken: flags.values["--pt"],
                campaignToken: flags.values["--ct"], fields: fields))
            return .create(try linkProject(flags), draft)
        case "list":
            return .list(try linkProject(try Flags(rest, allowed: ["--project"])))
        case "proxy-key":
            let flags = try Flags(rest, allowed: ["--org", "--domains"])
            let org = try field(OrgID.parse(try flags.required("--org"), field: "--org"))
            let domains = try flags.required("--domains").split(separator: ",", omittingEmptySubsequences: false)
                .map(String.init)
            return .proxyKey(org, try field(ProxyDomains.parse(domains, field: "--domains")))
        case "proxy-keys":
            let flags = try Flags(rest, allowed: ["--org"])
            return .proxyKeys(try field(OrgID.parse(try flags.required("--org"), field: "--org")))
        case "proxy-key-revoke":
            let flags = try Flags(rest, allowed: ["--org", "--id"])
            let org = try field(OrgID.parse(try flags.required("--org"), field: "--org"))
            let text = try flags.required("--id")
            guard let uuid = UUID(canonicalText: text), text.count == 36 else {
                throw UsageError(message: "--id must be a proxy key id (a UUID)")
            }
            return .revokeProxyKey(org, ProxyKeyID(uuid))
        default:
            throw UsageError(message: "unknown subcommand \"link \(verb)\"")
        }
    }

    private static func linkProject(_ flags: Flags) throws -> ProjectID {
        try field(ProjectID.parse(try flags.required("--project"), field: "--project"))
    }
}
