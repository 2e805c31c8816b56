import Commands
import Domain
import Foundation

/// `handoff admin buyer timeline`: the buyer's (or one payment's) diagnostic timeline with its verdict, the same as
/// `GET /s2s/v1/users/{guid}/timeline` and `GET /s2s/v1/payments/{paymentId}/timeline` (docs/diagnostics.md). Needs
/// only `DATABASE_URL`: a timeline opens no personal data.
extension AdminCommand {
    static let buyerTimelineUsage = """
        usage: handoff admin buyer timeline --org ORG --guid GUID [--json]
               handoff admin buyer timeline --org ORG --payment PAYMENT_ID [--json]
        prints the verdict, then one line per fact (time, payment, sentence); --json prints the API's answer
        """

    /// A timeline request, its arguments checked.
    enum TimelineCommand: Equatable {
        case buyer(OrgID, BuyerGuid, json: Bool)
        case payment(OrgID, PaymentID, json: Bool)
    }

    /// Runs `handoff admin buyer timeline <arguments>`; the exit status of `run` (1 for an unknown buyer or payment).
    static func runBuyerTimeline(_ arguments: [String], environment: [String: String]) -> Int32 {
        runSubcommand("buyer timeline", usage: buyerTimelineUsage, environment: environment,
                      parse: { try parseBuyerTimeline(arguments) }) { command, session in
            let timelines = BuyerTimelines(log: session.log)
            let found: Timeline?
            let asJSON: Bool
            switch command {
            case .buyer(let org, let guid, let json):
                found = try timelines.buyer(guid, org: org, now: Date())
                asJSON = json
            case .payment(let org, let paymentId, let json):
                found = try timelines.payment(paymentId, org: org, now: Date())
                asJSON = json
            }
            guard let timeline = found else {
                Subcommands.printError("handoff admin buyer timeline: the organization has no such buyer or payment")
                return 1
            }
            print(asJSON ? timeline.json.canonicalText : timeline.text, terminator: asJSON ? "\n" : "")
            return 0
        }
    }

    static func parseBuyerTimeline(_ arguments: [String]) throws -> TimelineCommand {
        let json = arguments.contains("--json")
        let flags = try Flags(arguments.filter { $0 != "--json" }, allowed: ["--org", "--guid", "--payment"])
        let org = try field(OrgID.parse(try flags.required("--org"), field: "--org"))
        switch (flags.values["--guid"], flags.values["--payment"]) {
        case (let guid?, nil):
            return .buyer(org, try field(BuyerGuid.parse(guid, field: "--guid")), json: json)
        case (nil, let payment?):
            return .payment(org, try field(PaymentID.parse(payment, field: "--payment")), json: json)
        default:
            throw UsageError(message: "exactly one of '--guid' and '--payment' is required")
        }
    }
}
