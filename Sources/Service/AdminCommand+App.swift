import Commands
import Domain
import Foundation

/// `handoff admin app …`: a project's apps, their store tokens and forward destinations (issue 14). App secrets are
/// sealed with `HANDOFF_MASTER_KEY`, which these commands need besides `DATABASE_URL`.
extension AdminCommand {
    static let appUsage = """
        usage: handoff admin app create --project P --platform ios|android --bundle-id B [app settings]
               handoff admin app update --app ID [--bundle-id B] [app settings] [ingest settings]
               handoff admin app rotate-token --app ID
               handoff admin app rotate-publishable-key --app ID
               handoff admin app ingest-settings --app ID [ingest settings]
               handoff admin app show --app ID
               handoff admin app destination add --app ID --scheme x3|attribloom --url URL [--secret S]
               handoff admin app destination remove --app ID --destination ID
        app settings: [--app-apple-id N] [--forward-url URL] [--revenuecat-secret S] [--google-push-audience A]
                      [--google-push-service-account EMAIL] [--google-service-account-key FILE]
                      [--meta-install-referrer-key HEX64]
                      (on update, an empty value clears one)
        ingest settings (the AppConfig): [--enabled on|off] [--identify on|off] [--leads on|off]
                   [--blocked-events A,B] [--exclude-screens GLOB,…] [--session-timeout-ms N]
                   [--flush-interval-ms N] [--flush-events N] [--recording on|off] [--recording-screenshots on|off]
                   [--recording-health on|off] [--recording-exclude-screens GLOB,…] [--recording-sample-rate 0…1]
                   [--signup-is-lead on|off] [--recording-mask-text on|off] [--recording-mask-images on|off]
                   [--recording-wifi-only on|off] [--recording-unmask-anchors A,B] [--recording-mask-anchors A,B]
                   [--recording-max-fps 1…30] [--skan on|off] [--attestation on|off] [--link-hosts H,…]
                   [--link-path-prefix /P]
        """

    /// An app subcommand, its arguments checked.
    enum AppCommand {
        case create(ProjectID, AppDraft)
        /// The app's own fields and its ingest settings (either may be empty, not both).
        case update(AppID, AppChange, ingest: [String: String])
        case rotateToken(AppID)
        case rotatePublishableKey(AppID)
        case ingestSettings(AppID, [String: String])
        case show(AppID)
        case addDestination(AppID, DestinationScheme, AppForwardURL, secret: String?)
        case removeDestination(AppID, DestinationID)
    }

    static let appSettingFlags = ["--app-apple-id", "--forward-url"] + AppSecretKind.allCases.map(\.flag)
    static let ingestSettingFlags = IngestSettingsChange.names.map { "--" + $0 }

    /// Runs `handoff admin app <arguments>` (the words after `app`); the exit status of `run`.
    static func runApp(_ arguments: [String], environment: [String: String]) -> Int32 {
        let words = "app " + arguments.prefix(arguments.first == "destination" ? 2 : 1).joined(separator: " ")
        return runSubcommand(words, usage: appUsage, environment: environment,
                             parse: { try parseApp(arguments) }) { command, session in
            let masterKeys = try session.masterKeys("app secrets and store tokens are sealed with it")
            let log = session.log
            let model = AppModel(log: log, masterKeys: masterKeys, forwardAddresses: ForwardAddresses(
                allowed: session.configuration.forwardAllowedNetworks))
            print(try performApp(command, model: model, ingest: IngestModel(log: log),
                                 publicBaseURL: session.configuration.publicBaseURL))
            return 0
        }
    }

    static func parseApp(_ arguments: [String]) throws -> AppCommand {
        guard let verb = arguments.first else { throw UsageError(message: "an app subcommand is required") }
        if verb == "destination" {
            guard arguments.count >= 2 else { throw UsageError(message: "destination add or destination remove") }
            let flags = Array(arguments.dropFirst(2))
            switch arguments[1] {
            case "add":
                let flags = try Flags(flags, allowed: ["--app", "--scheme", "--url", "--secret"])
                let scheme = try field(DestinationScheme.parse(try flags.required("--scheme"), field: "--scheme"))
                let url = try field(AppForwardURL.validate(try flags.required("--url"), field: "--url"))
                let secret = try flags.values["--secret"].map { try field(SecretText.token.parse($0, field: "--secret")) }
                return .addDestination(try appID(flags), scheme, url, secret: secret)
            case "remove":
                let flags = try Flags(flags, allowed: ["--app", "--destination"])
                return .removeDestination(try appID(flags), try field(DestinationID.parse(
                    try flags.required("--destination"), field: "--destination")))
            default:
                throw UsageError(message: "unknown subcommand \"app destination \(arguments[1])\"")
            }
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "create":
            let flags = try Flags(rest, allowed: ["--project", "--platform", "--bundle-id"] + appSettingFlags)
            let project = try field(ProjectID.parse(try flags.required("--project"), field: "--project"))
            let appAppleId = try flags.values["--app-apple-id"].map {
                try field(AppFields.appAppleID(text: $0, field: "--app-apple-id"))
            }
            var secrets: [AppSecretKind: String] = [:]
            for kind in AppSecretKind.allCases {
                guard let value = flags.values[kind.flag] else { continue }
                secrets[kind] = try secretText(kind, value)
            }
            let draft = try field(AppDraft.parse(
                platform: try flags.required("--platform"), bundleId: try flags.required("--bundle-id"),
                appAppleId: appAppleId, forwardUrl: flags.values["--forward-url"], secrets: secrets, fields: .flags))
            return .create(project, draft)
        case "update":
            let flags = try Flags(rest, allowed: ["--app", "--bundle-id", "--platform", "--project"] + appSettingFlags
                + ingestSettingFlags)
            for fixed in ["--platform", "--project"] where flags.values[fixed] != nil {
                throw UsageError(message: "\(fixed) cannot change: an app keeps its platform and project "
                    + "(create another app instead)")
            }
            var change = AppChange(fields: .flags)
            change.bundleId = flags.values["--bundle-id"]
            var refusals: [FieldRefusal?] = []
            if let value = flags.values["--app-apple-id"] {
                if value.isEmpty {
                    refusals.append(change.setAppAppleId(nil))
                } else {
                    refusals.append(change.setAppAppleId(try field(AppFields.appAppleID(text: value,
                                                                                        field: "--app-apple-id"))))
                }
            }
            if let value = flags.values["--forward-url"] {
                refusals.append(change.setForwardUrl(value.isEmpty ? nil : value))
            }
            for kind in AppSecretKind.allCases {
                guard let value = flags.values[kind.flag] else { continue }
                refusals.append(change.setSecret(kind, value.isEmpty ? nil : try secretText(kind, value)))
            }
            if let refusal = refusals.compactMap({ $0 }).first { throw UsageError(message: refusal.message) }
            let app = try appID(flags)
            let ingest = try ingestChanges(flags)
            guard !change.isEmpty || !ingest.isEmpty else {
                throw UsageError(message: "give at least one setting to change")
            }
            return .update(app, change, ingest: ingest)
        case "rotate-token":
            return .rotateToken(try appID(try Flags(rest, allowed: ["--app"])))
        case "ingest-settings":
            let flags = try Flags(rest, allowed: ["--app"] + ingestSettingFlags)
            let changes = try ingestChanges(flags)
            guard !changes.isEmpty else { throw UsageError(message: "give at least one setting to change") }
            return .ingestSettings(try appID(flags), changes)
        case "rotate-publishable-key":
            return .rotatePublishableKey(try appID(try Flags(rest, allowed: ["--app"])))
        case "show":
            return .show(try appID(try Flags(rest, allowed: ["--app"])))
        default:
            throw UsageError(message: "unknown subcommand \"app \(verb)\"")
        }
    }

    static func performApp(_ command: AppCommand, model: AppModel, ingest: IngestModel, publicBaseURL: String) throws
        -> String
    {
        let metadata = EventMetadata(actor: .admin("cli"))
        func scope(_ app: AppID) -> AppCommandScope { AppCommandScope(app: app, org: nil, project: nil) }
        switch command {
        case .create(let project, let draft):
            let created = try model.createApp.run(project: project, org: nil, draft: draft, metadata: metadata)
            return try encode(TokenAnswer(appId: created.app.appId, storeToken: created.storeToken.text,
                                          storeUrls: StoreURLs(base: publicBaseURL, token: created.storeToken)))
        case .update(let app, let change, let ingestChanges):
            // As `PATCH /s2s/v1/apps/{appId}`: the app's fields first, then its ingest settings; the app as it is.
            var updated = change.isEmpty ? nil : try model.updateApp.run(scope(app), change: change,
                                                                         metadata: metadata)
            if !ingestChanges.isEmpty {
                _ = try ingest.changeSettings.run(scope(app), changes: ingestChanges, metadata: metadata)
                updated = try model.lookup.appOfAnyOrg(app)
            }
            guard let updated else { throw Refusal.notFound("no app has this id", field: "--app") }
            return try encode(updated)
        case .rotateToken(let app):
            let rotated = try model.rotateStoreToken.run(scope(app), metadata: metadata)
            return try encode(TokenAnswer(appId: rotated.app.appId, storeToken: rotated.storeToken.text,
                                          storeUrls: StoreURLs(base: publicBaseURL, token: rotated.storeToken)))
        case .ingestSettings(let app, let changes):
            let settings = try ingest.changeSettings.run(scope(app), changes: changes, metadata: metadata)
            return try encode(IngestSettingsAnswer(appId: app.description, settings: settings))
        case .rotatePublishableKey(let app):
            return try encode(try ingest.rotatePublishableKey.run(scope(app), metadata: metadata))
        case .show(let app):
            // The admin CLI names the app only: read its org first, as the commands do.
            guard let found = try model.lookup.appOfAnyOrg(app) else {
                throw Refusal.notFound("no app has this id", field: "--app")
            }
            return try encode(found)
        case .addDestination(let app, let scheme, let url, let secret):
            let destination = try model.addDestination.run(scope(app), scheme: scheme, url: url, secret: secret,
                                                           fields: .flags, metadata: metadata)
            return try encode(["destinationId": destination.description])
        case .removeDestination(let app, let destination):
            try model.removeDestination.run(scope(app), destination: destination, metadata: metadata)
            return #"{"appId":"\#(app)","destinationId":"\#(destination)","removed":true}"#
        }
    }

    /// `{"appId","settings"}`: the answer of `app ingest-settings` (the settings the AppConfig is built from).
    struct IngestSettingsAnswer: Encodable {
        var appId: String
        var settings: IngestSettings
    }

    /// `{"appId","storeToken","storeUrls"}`: the answer of `app create` and `app rotate-token`.
    struct TokenAnswer: Encodable {
        var appId: String
        var storeToken: String
        var storeUrls: StoreURLs
    }

    /// The ingest settings the flags change (`--enabled off` → `enabled: off`), checked against the defaults so a
    /// bad value is a usage error before any database work.
    private static func ingestChanges(_ flags: Flags) throws -> [String: String] {
        var changes: [String: String] = [:]
        for name in IngestSettingsChange.names { changes[name] = flags.values["--" + name] }
        if case .failure(let refusal) = IngestSettingsChange.apply(changes, to: .defaults) {
            throw UsageError(message: refusal.message)
        }
        return changes
    }

    private static func appID(_ flags: Flags) throws -> AppID {
        try field(AppID.parse(try flags.required("--app"), field: "--app"))
    }

    /// A secret flag's text: the value itself, or for the service-account key the contents of the file it names.
    private static func secretText(_ kind: AppSecretKind, _ value: String) throws -> String {
        guard kind == .googleServiceAccountKey else { return value }
        guard let data = FileManager.default.contents(atPath: value) else {
            throw UsageError(message: FieldRefusal(field: kind.flag, code: .serviceAccountKeyFormat,
                                                   rule: "name a readable key file").message)
        }
        return String(decoding: data, as: UTF8.self)
    }
}
