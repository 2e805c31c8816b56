import Commands
import Domain
import EventStore
import Foundation
import Postgres

/// `handoff admin`: organizations, projects, secret keys, apps (`AdminCommand+App.swift`) and affiliate programs
/// (`AdminCommand+Affiliate.swift`), answering JSON on standard output.
///
/// Runs as `DATABASE_URL` (the application role suffices). Exit status: 0 done; 2 bad arguments (the message names
/// the flag); 1 the command failed (unknown org or project, no such key, database errors).
public enum AdminCommand {
    static let usage = """
        usage: handoff admin org create --name N
               handoff admin org set-auditor-url --org ORG --url URL   (--url "" clears it; docs/audit.md)
               handoff admin project create --org ORG --name N [settings]
               handoff admin project update PROJECT [--name N] [settings]
               handoff admin key create --project P
               handoff admin key revoke --project P --prefix sk_live_XXXXXXXX
               handoff admin app …  (apps, store tokens, destinations: handoff admin app --help)
               handoff admin affiliate …  (campaigns, affiliates: handoff admin affiliate --help)
               handoff admin link …  (go links: handoff admin link --help)
               handoff admin surface …  (forwarded App Store notifications: handoff admin surface --help)
               handoff admin buyer erase --org ORG (--guid GUID | --email ADDRESS)   (docs/personal-data.md)
               handoff admin buyer timeline --org ORG (--guid GUID | --payment ID) [--json]   (docs/diagnostics.md)
               handoff admin dashboard-link --project P   (a signed link to the handoff dashboard, valid 1 hour)
        settings: [--paywall-url URL] [--return-scheme S] [--android-package P] [--ios-bundle-id B]
                  [--fingerprint on|off] [--tracker none|appsflyer|adjust] [--tracker-link URL]
                  [--email-verification payment|mailbox] [--landing-url URL]
                  (an empty value clears an optional setting)
        """

    /// A refusal of the arguments: exit 2.
    struct UsageError: Error { let message: String }

    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let words = Array(arguments.prefix(2))
        if arguments.first == "--help" || arguments.first == "-h" {
            print(usage)
            return 0
        }
        if arguments.prefix(2) == ["org", "set-auditor-url"] {
            return runSetAuditorURL(Array(arguments.dropFirst(2)), environment: environment)
        }
        if arguments.first == "app" {
            if arguments.count == 1 || arguments[1] == "--help" || arguments[1] == "-h" {
                print(appUsage)
                return arguments.count == 1 ? 2 : 0
            }
            return runApp(Array(arguments.dropFirst()), environment: environment)
        }
        if arguments.first == "affiliate" {
            if arguments.count == 1 || arguments[1] == "--help" || arguments[1] == "-h" {
                print(affiliateUsage)
                return arguments.count == 1 ? 2 : 0
            }
            return runAffiliate(Array(arguments.dropFirst()), environment: environment)
        }
        if arguments.first == "link" {
            if arguments.count == 1 || arguments[1] == "--help" || arguments[1] == "-h" {
                print(linkUsage)
                return arguments.count == 1 ? 2 : 0
            }
            return runLink(Array(arguments.dropFirst()), environment: environment)
        }
        if arguments.first == "dashboard-link" {
            return runDashboardLink(Array(arguments.dropFirst()), environment: environment)
        }
        if arguments.prefix(2) == ["buyer", "timeline"] {
            return runBuyerTimeline(Array(arguments.dropFirst(2)), environment: environment)
        }
        if arguments.first == "buyer" { return runBuyer(Array(arguments.dropFirst()), environment: environment) }
        if arguments.first == "surface" {
            if arguments.count == 1 || arguments[1] == "--help" || arguments[1] == "-h" {
                print(surfaceUsage)
                return arguments.count == 1 ? 2 : 0
            }
            return runSurface(Array(arguments.dropFirst()), environment: environment)
        }
        return runSubcommand(words.joined(separator: " "), usage: usage, environment: environment,
                             parse: { try parse(arguments) }) { command, session in
            print(try perform(command, model: WriteModel(pool: session.pool, secrets: nil)))
            return 0
        }
    }

    enum Command {
        case createOrg(name: String)
        case createProject(org: OrgID, settings: ProjectSettings)
        case updateProject(ProjectID, ProjectSettingsChange)
        case createKey(ProjectID)
        case revokeKey(ProjectID, prefix: String)
    }

    static func parse(_ arguments: [String]) throws -> Command {
        guard arguments.count >= 2 else { throw UsageError(message: "a subcommand is required") }
        let rest = Array(arguments.dropFirst(2))
        switch (arguments[0], arguments[1]) {
        case ("org", "create"):
            let flags = try Flags(rest, allowed: ["--name"])
            return .createOrg(name: try flags.required("--name"))
        case ("project", "create"):
            let flags = try Flags(rest, allowed: ["--org", "--name"] + settingFlags)
            let org = try field(OrgID.parse(try flags.required("--org"), field: "--org"))
            let change = try settingsChange(flags)
            let settings = try field(ProjectSettings.new(name: try flags.required("--name"), nameField: "--name",
                                                         change: change))
            return .createProject(org: org, settings: settings)
        case ("project", "update"):
            guard let id = rest.first, !id.hasPrefix("--") else {
                throw UsageError(message: "the project id is required (project update PROJECT [flags])")
            }
            let project = try field(ProjectID.parse(id, field: "PROJECT"))
            let flags = try Flags(Array(rest.dropFirst()), allowed: ["--name"] + settingFlags)
            var change = try settingsChange(flags)
            if let name = flags.values["--name"] { change.name = .set(name) }
            guard !change.isEmpty else { throw UsageError(message: "give at least one setting to change") }
            return .updateProject(project, change)
        case ("key", "create"):
            let flags = try Flags(rest, allowed: ["--project"])
            return .createKey(try field(ProjectID.parse(try flags.required("--project"), field: "--project")))
        case ("key", "revoke"):
            let flags = try Flags(rest, allowed: ["--project", "--prefix"])
            let project = try field(ProjectID.parse(try flags.required("--project"), field: "--project"))
            let prefix = try field(SecretKey.parseVisiblePrefix(try flags.required("--prefix"), field: "--prefix"))
            return .revokeKey(project, prefix: prefix)
        default:
            throw UsageError(message: "unknown subcommand \"\(arguments[0]) \(arguments[1])\"")
        }
    }

    static func perform(_ command: Command, model: WriteModel) throws -> String {
        let metadata = EventMetadata(actor: .admin("cli"))
        switch command {
        case .createOrg(let name):
            let org = try model.createOrganization.run(name: name, metadata: metadata)
            return try encode(["orgId": org.description])
        case .createProject(let org, let settings):
            let (project, key) = try model.createProject.run(org: org, settings: settings, metadata: metadata)
            return try encode(["projectId": project.description, "secretKey": key.text])
        case .updateProject(let project, let change):
            return try encode(try model.updateProject.run(project, org: nil, change: change, metadata: metadata))
        case .createKey(let project):
            let key = try model.createSecretKey.run(project: project, metadata: metadata)
            return try encode(["secretKey": key.text])
        case .revokeKey(let project, let prefix):
            let count = try model.revokeSecretKeys.run(project: project, prefix: prefix, metadata: metadata)
            return "{\"prefix\":\"\(prefix)\",\"revoked\":\(count)}"
        }
    }

    static let settingFlags = ["--paywall-url", "--return-scheme", "--android-package", "--ios-bundle-id",
                               "--fingerprint", "--tracker", "--tracker-link", "--email-verification",
                               "--landing-url"]

    static func settingsChange(_ flags: Flags) throws -> ProjectSettingsChange {
        var change = ProjectSettingsChange(fields: .flags)
        func text(_ flag: String) -> SettingChange {
            guard let value = flags.values[flag] else { return .unchanged }
            return value.isEmpty ? .clear : .set(value)
        }
        change.paywallUrl = text("--paywall-url")
        change.returnScheme = text("--return-scheme")
        change.androidPackage = text("--android-package")
        change.iosBundleId = text("--ios-bundle-id")
        change.trackerLink = text("--tracker-link")
        change.landingUrl = text("--landing-url")
        if let value = flags.values["--fingerprint"] {
            switch value {
            case "on": change.fingerprint = true
            case "off": change.fingerprint = false
            default:
                throw UsageError(message: FieldRefusal(field: "--fingerprint", code: .switchFormat,
                                                       rule: "be on or off").message)
            }
        }
        if let value = flags.values["--tracker"] {
            change.tracker = try field(ProjectSettings.parseTracker(value, field: "--tracker"))
        }
        if let value = flags.values["--email-verification"] {
            change.emailVerification = try field(EmailVerification.parse(value, field: "--email-verification"))
        }
        return change
    }

    static func field<T>(_ result: Result<T, FieldRefusal>) throws -> T {
        switch result {
        case .success(let value): return value
        case .failure(let refusal): throw UsageError(message: refusal.message)
        }
    }

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `--flag value` (or `--flag=value`) pairs; an unknown, repeated or valueless flag is a usage error naming it.
    struct Flags {
        var values: [String: String] = [:]

        init(_ arguments: [String], allowed: [String]) throws {
            var index = 0
            while index < arguments.count {
                var flag = arguments[index]
                var value: String?
                if flag.hasPrefix("--"), let equals = flag.firstIndex(of: "=") {
                    value = String(flag[flag.index(after: equals)...])
                    flag = String(flag[..<equals])
                }
                guard allowed.contains(flag) else {
                    throw UsageError(message: "unknown argument \"\(flag)\"")
                }
                if value == nil {
                    guard index + 1 < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
                    value = arguments[index + 1]
                    index += 1
                }
                guard values[flag] == nil else { throw UsageError(message: "\(flag) is given twice") }
                values[flag] = value
                index += 1
            }
        }

        func required(_ flag: String) throws -> String {
            guard let value = values[flag] else { throw UsageError(message: "\(flag) is required") }
            return value
        }
    }
}
