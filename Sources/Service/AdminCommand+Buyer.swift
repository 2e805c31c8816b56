import Commands
import Domain
import Foundation

/// `handoff admin buyer erase`: erase a buyer's personal data (issue 16 §5, docs/personal-data.md "Erasure"), by
/// guid or by e-mail address, exactly as the S2S erasure routes do (the same command, the same audited function; the
/// event's actor is `admin`/`cli`). Needs the identity secrets besides `DATABASE_URL` (the pepper hashes an address).
extension AdminCommand {
    static let buyerUsage = """
        usage: handoff admin buyer erase --org ORG --guid GUID
               handoff admin buyer erase --org ORG --email ADDRESS
        prints {"erasureId","guid"} or {"erasureId","guids"}; a repeat by guid prints the first erasure's id
        """

    /// An erasure, its arguments checked.
    enum BuyerCommand: Equatable {
        case eraseGuid(OrgID, BuyerGuid)
        case eraseEmail(OrgID, EmailAddress)
    }

    /// Runs `handoff admin buyer <arguments>` (the words after `buyer`); the exit status of `run`.
    static func runBuyer(_ arguments: [String], environment: [String: String]) -> Int32 {
        let words = (["buyer"] + arguments.prefix(1)).joined(separator: " ")
        return runSubcommand(words, usage: buyerUsage, environment: environment,
                             parse: { try parseBuyer(arguments) }) { command, session in
            let erase = EraseBuyer(IdentityContext(log: session.log, secrets: try session.identity()))
            let metadata = EventMetadata(actor: .admin("cli"))
            switch command {
            case .eraseGuid(let org, let guid):
                let erased = try erase.run(guid, org: org, metadata: metadata)
                print(EventJSON.object(["erasureId": .string(erased.erasureId.lowercasedText),
                                        "guid": .string(erased.guid.description)]).canonicalText)
            case .eraseEmail(let org, let email):
                let erased = try erase.run(email: email, org: org, metadata: metadata)
                print(EventJSON.object(["erasureId": .string(erased.erasureId.lowercasedText),
                                        "guids": .array(erased.guids.map { .string($0.description) })])
                    .canonicalText)
            }
            return 0
        }
    }

    static func parseBuyer(_ arguments: [String]) throws -> BuyerCommand {
        guard arguments.first == "erase" else {
            throw UsageError(message: arguments.isEmpty ? "a buyer subcommand is required"
                                                        : "unknown buyer subcommand (erase)")
        }
        let flags = try Flags(Array(arguments.dropFirst()), allowed: ["--org", "--guid", "--email"])
        let org = try field(OrgID.parse(try flags.required("--org"), field: "--org"))
        switch (flags.values["--guid"], flags.values["--email"]) {
        case (let guid?, nil):
            return .eraseGuid(org, try field(BuyerGuid.parse(guid, field: "--guid")))
        case (nil, let email?):
            return .eraseEmail(org, try field(EmailAddress.parse(email, field: "--email")))
        default:
            throw UsageError(message: "exactly one of '--guid' and '--email' is required")
        }
    }
}
