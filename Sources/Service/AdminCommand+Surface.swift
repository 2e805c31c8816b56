import Commands
import Domain
import Foundation

/// `handoff admin surface …`: the surfaces of iOS apps, where a developer's server forwards the app's App Store
/// notifications (issue 15, docs/affiliates.md). Forwarding secrets are sealed with `HANDOFF_MASTER_KEY`, which these
/// commands need besides `DATABASE_URL`; forwarding URLs are on `PUBLIC_BASE_URL`.
extension AdminCommand {
    static let surfaceUsage = """
        usage: handoff admin surface create --app APP
               handoff admin surface rotate-secret --surface ID [--grace-hours H]
               handoff admin surface show --surface ID
        create and rotate-secret print the forwarding secret once; after a rotation the previous secret keeps
        verifying for --grace-hours (0–720, default 24)
        """

    /// A surface subcommand, its arguments checked.
    enum SurfaceCommand: Equatable {
        case create(AppID)
        case rotateSecret(SurfaceID, graceHours: Int)
        case show(SurfaceID)
    }

    /// Runs `handoff admin surface <arguments>` (the words after `surface`); the exit status of `run`.
    static func runSurface(_ arguments: [String], environment: [String: String]) -> Int32 {
        let words = (["surface"] + arguments.prefix(1)).joined(separator: " ")
        return runSubcommand(words, usage: surfaceUsage, environment: environment,
                             parse: { try parseSurface(arguments) }) { command, session in
            let model = SurfaceModel(log: session.log,
                                     masterKeys: try session.masterKeys("forwarding secrets are sealed with it"))
            print(try performSurface(command, model: model, publicBaseURL: session.configuration.publicBaseURL,
                                     now: Date()))
            return 0
        }
    }

    static func parseSurface(_ arguments: [String]) throws -> SurfaceCommand {
        guard let verb = arguments.first else { throw UsageError(message: "a surface subcommand is required") }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "create":
            let flags = try Flags(rest, allowed: ["--app"])
            return .create(try field(AppID.parse(try flags.required("--app"), field: "--app")))
        case "rotate-secret":
            let flags = try Flags(rest, allowed: ["--surface", "--grace-hours"])
            let hours = try flags.values["--grace-hours"].map {
                try field(SurfaceSecretRotation.parseGraceHours($0, field: "--grace-hours"))
            }
            return .rotateSecret(try surfaceID(flags), graceHours: hours ?? SurfaceSecretRotation.defaultGraceHours)
        case "show":
            return .show(try surfaceID(try Flags(rest, allowed: ["--surface"])))
        default:
            throw UsageError(message: "unknown subcommand \"surface \(verb)\"")
        }
    }

    static func performSurface(_ command: SurfaceCommand, model: SurfaceModel, publicBaseURL: String, now: Date)
        throws -> String
    {
        let metadata = EventMetadata(actor: .admin("cli"))
        switch command {
        case .create(let app):
            let created = try model.createSurface.run(AppCommandScope(app: app, org: nil, project: nil),
                                                      field: "--app", metadata: metadata)
            return try encode(SecretAnswer(surface: created.surface, secret: created.secret, base: publicBaseURL,
                                           withGrace: false))
        case .rotateSecret(let surface, let hours):
            let rotated = try model.rotateSecret.run(surface, graceHours: hours, now: now, field: "--surface",
                                                     metadata: metadata)
            return try encode(SecretAnswer(surface: rotated.surface, secret: rotated.secret, base: publicBaseURL,
                                           withGrace: true))
        case .show(let surface):
            guard let found = try model.lookup.surface(surface) else {
                throw Refusal.notFound("no surface has this id", field: "--surface")
            }
            return try encode(ShownSurface(found, base: publicBaseURL))
        }
    }

    /// `{"surfaceId","forwardingUrl","forwardingSecret"}`, and on rotation `"previousSecretValidUntil"`: the answer
    /// that shows a secret (the only one).
    struct SecretAnswer: Encodable {
        var surfaceId: String
        var forwardingUrl: String
        var forwardingSecret: String
        var previousSecretValidUntil: String?

        init(surface: SurfaceLookup.Surface, secret: ForwardingSecret, base: String, withGrace: Bool) {
            surfaceId = surface.surfaceId.description
            forwardingUrl = surface.surfaceId.forwardingURL(base: base)
            forwardingSecret = secret.text
            previousSecretValidUntil = withGrace ? surface.previousSecretValidUntil : nil
        }
    }

    /// A surface as `show` prints it: never a secret.
    struct ShownSurface: Encodable {
        var surfaceId: String
        var appId: String
        var projectId: String
        var forwardingUrl: String
        var createdAt: String
        var secretRotatedAt: String?
        var previousSecretValidUntil: String?

        init(_ surface: SurfaceLookup.Surface, base: String) {
            surfaceId = surface.surfaceId.description
            appId = surface.appId.description
            projectId = surface.projectId.description
            forwardingUrl = surface.surfaceId.forwardingURL(base: base)
            createdAt = surface.createdAt
            secretRotatedAt = surface.secretRotatedAt
            previousSecretValidUntil = surface.previousSecretValidUntil
        }

        private enum CodingKeys: String, CodingKey {
            case surfaceId, appId, projectId, forwardingUrl, createdAt, secretRotatedAt, previousSecretValidUntil
        }

        /// Every key written, unset ones as null.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(surfaceId, forKey: .surfaceId)
            try container.encode(appId, forKey: .appId)
            try container.encode(projectId, forKey: .projectId)
            try container.encode(forwardingUrl, forKey: .forwardingUrl)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(secretRotatedAt, forKey: .secretRotatedAt)
            try container.encode(previousSecretValidUntil, forKey: .previousSecretValidUntil)
        }
    }

    private static func surfaceID(_ flags: Flags) throws -> SurfaceID {
        try field(SurfaceID.parse(try flags.required("--surface"), field: "--surface"))
    }
}
