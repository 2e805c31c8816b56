import Commands
import Domain
import Foundation

/// `handoff admin affiliate …`: a project's affiliate campaigns and affiliates (issue 15), as JSON of the shapes the
/// S2S routes answer. Needs `DATABASE_URL` only; links are on `PUBLIC_BASE_URL`.
extension AdminCommand {
    static let affiliateUsage = """
        usage: handoff admin affiliate create --project P --campaign C --name N [--ref-code R]
               handoff admin affiliate list --project P
               handoff admin affiliate campaign create --project P --name N (--basis-points N | --amount-minor N
                      --currency CUR) [--recurring-renewals M] [--window-days D] [--hold-days D] [--offer-code O]
               handoff admin affiliate campaign list --project P
               handoff admin affiliate statement --affiliate A [--project P] [--from T] [--to T] --format csv|jsonl
        --basis-points: percent of the price in basis points (1-10000); --amount-minor, --currency: a fixed amount
        per conversion; --recurring-renewals: renewals that also earn (0-120, default 0); --window-days: attribution
        window (1-365, default 30); --hold-days: days before a credit is payable (0-365, default 30);
        --from, --to: RFC 3339 instants, entries recorded in [from, to) (default: the beginning, now)
        """

    /// An affiliate subcommand, its arguments checked.
    enum AffiliateCommand {
        case create(ProjectID, AffiliateDraft)
        case list(ProjectID)
        case createCampaign(ProjectID, CampaignTerms)
        case listCampaigns(ProjectID)
        case statement(CommissionStatement.Query, StatementFormat)
    }

    /// Runs `handoff admin affiliate <arguments>` (the words after `affiliate`); the exit status of `run`.
    static func runAffiliate(_ arguments: [String], environment: [String: String]) -> Int32 {
        let words = "affiliate " + arguments.prefix(arguments.first == "campaign" ? 2 : 1).joined(separator: " ")
        return runSubcommand(words, usage: affiliateUsage, environment: environment,
                             parse: { try parseAffiliate(arguments) }) { command, session in
            print(try performAffiliate(command, model: AffiliateModel(log: session.log),
                                       publicBaseURL: session.configuration.publicBaseURL))
            return 0
        }
    }

    static func parseAffiliate(_ arguments: [String]) throws -> AffiliateCommand {
        guard let verb = arguments.first else { throw UsageError(message: "an affiliate subcommand is required") }
        if verb == "campaign" {
            guard arguments.count >= 2 else { throw UsageError(message: "campaign create or campaign list") }
            let rest = Array(arguments.dropFirst(2))
            switch arguments[1] {
            case "create":
                let flags = try Flags(rest, allowed: ["--project", "--name", "--basis-points", "--amount-minor",
                                                      "--currency", "--recurring-renewals", "--window-days",
                                                      "--hold-days", "--offer-code"])
                return .createCampaign(try projectID(flags), try campaignTerms(flags))
            case "list":
                return .listCampaigns(try projectID(try Flags(rest, allowed: ["--project"])))
            default:
                throw UsageError(message: "unknown subcommand \"affiliate campaign \(arguments[1])\"")
            }
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "create":
            let flags = try Flags(rest, allowed: ["--project", "--campaign", "--name", "--ref-code"])
            let campaign = try field(CampaignID.parse(try flags.required("--campaign"), field: "--campaign"))
            let code = try flags.values["--ref-code"].map { try field(RefCode.parse($0, field: "--ref-code")) }
            let draft = try field(AffiliateDraft.parse(name: try flags.required("--name"), campaign: campaign,
                                                       refCode: code, nameField: "--name"))
            return .create(try projectID(flags), draft)
        case "list":
            return .list(try projectID(try Flags(rest, allowed: ["--project"])))
        case "statement":
            return try parseStatement(rest)
        default:
            throw UsageError(message: "unknown subcommand \"affiliate \(verb)\"")
        }
    }

    static func performAffiliate(_ command: AffiliateCommand, model: AffiliateModel, publicBaseURL: String) throws
        -> String
    {
        let metadata = EventMetadata(actor: .admin("cli"))
        switch command {
        case .create(let project, let draft):
            let created = try model.createAffiliate.run(project: project, org: nil, draft: draft, fields: .flags,
                                                        metadata: metadata)
            return try encode(created.linked(base: publicBaseURL))
        case .list(let project):
            guard let affiliates = try model.lookup.affiliates(project: project, org: nil) else {
                throw Refusal.notFound("no project has this id", field: "--project")
            }
            return try encode(["affiliates": affiliates.map { $0.linked(base: publicBaseURL) }])
        case .createCampaign(let project, let terms):
            return try encode(try model.createCampaign.run(project: project, org: nil, terms: terms,
                                                           metadata: metadata))
        case .listCampaigns(let project):
            guard let campaigns = try model.lookup.campaigns(project: project, org: nil) else {
                throw Refusal.notFound("no project has this id", field: "--project")
            }
            return try encode(["campaigns": campaigns])
        case .statement(let query, let format):
            return try statementText(query, format: format, statement: model.statement)
        }
    }

    /// The campaign flags as terms: exactly one commission kind, each number checked and named by its flag.
    private static func campaignTerms(_ flags: Flags) throws -> CampaignTerms {
        func number(_ flag: String) throws -> Int? {
            try flags.values[flag].map { text in
                guard let value = Int(text) else { throw UsageError(message: "\(flag) must be an integer") }
                return value
            }
        }
        let flagOf = ["type": "--basis-points", "basisPoints": "--basis-points", "amountMinor": "--amount-minor",
                      "currency": "--currency", "recurringRenewals": "--recurring-renewals"]
        let basisPoints = try number("--basis-points")
        let amountMinor = try number("--amount-minor")
        guard (basisPoints == nil) != (amountMinor == nil) else {
            throw UsageError(message: "give exactly one of --basis-points and --amount-minor (with --currency)")
        }
        let commission = try field(CommissionRule.parse(
            type: basisPoints == nil ? "fixed" : "percent", basisPoints: basisPoints, amountMinor: amountMinor,
            currency: flags.values["--currency"], recurringRenewals: try number("--recurring-renewals"),
            name: { flagOf[$0] ?? $0 }))
        return try field(CampaignTerms.parse(
            name: try flags.required("--name"), commission: commission, windowDays: try number("--window-days"),
            holdDays: try number("--hold-days"), offerCode: flags.values["--offer-code"], fields: .flags))
    }

    private static func projectID(_ flags: Flags) throws -> ProjectID {
        try field(ProjectID.parse(try flags.required("--project"), field: "--project"))
    }
}
