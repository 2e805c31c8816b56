import Commands
import Domain
import Foundation
import HTTPServer

/// `GET` and `PATCH /s2s/v1/project`: the key's own project, never another.
enum ProjectHandler {
    static func show(_ request: Request, _ tenant: ProjectLookup.KeyHolder, _ environment: Environment) throws
        -> Response {
        guard let project = try environment.projects.project(tenant.projectId, org: tenant.orgId) else {
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
        return try JSONResponse.encode(project)
    }

    static func update(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let change = try JSONBody.decode(ProjectSettingsPatch.self, from: request).change
        let metadata = EventMetadata(actor: .key(prefix: tenant.prefix), requestId: context.requestID,
                                     correlationId: context.requestID)
        do {
            let project = try environment.model.updateProject.run(
                tenant.projectId, org: tenant.orgId, change: change, metadata: metadata)
            return try JSONResponse.encode(project)
        } catch let refusal as Refusal where refusal.kind == .notFound {
            // The key's own project is gone (deleted under a live key): the key speaks for nothing.
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
    }
}

/// The body of `PATCH /s2s/v1/project`: any of the settings fields; an absent field is kept, `null` clears an
/// optional one. Unknown fields are refused, so a misspelt field is not silently ignored.
///
/// `tracker` and `trackerLink` change together, so that whether a body is taken never depends on the stored project
/// (which `/openapi.json` could not say): `trackerLink` only with `tracker`, a tracker other than `none` with its
/// link, `none` without one (`null` or absent).
struct ProjectSettingsPatch: Decodable {
    var change = ProjectSettingsChange(fields: .json)

    private typealias Key = JSONField

    private static let known: Set<String> = [
        "name", "paywallUrl", "returnScheme", "androidPackage", "iosBundleId", "fingerprint", "tracker", "trackerLink",
        "emailVerification", "landingUrl",
    ]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: Self.known, what: "a project setting")
        func text(_ name: String) throws -> SettingChange {
            let key = Key(name)
            guard container.contains(key) else { return .unchanged }
            if try container.decodeNil(forKey: key) { return .clear }
            return .set(try container.decode(String.self, forKey: key))
        }
        change.name = try text("name")
        change.paywallUrl = try text("paywallUrl")
        change.returnScheme = try text("returnScheme")
        change.androidPackage = try text("androidPackage")
        change.iosBundleId = try text("iosBundleId")
        change.trackerLink = try text("trackerLink")
        change.landingUrl = try text("landingUrl")
        let fingerprint = Key("fingerprint")
        if container.contains(fingerprint) {
            change.fingerprint = try container.decode(Bool.self, forKey: fingerprint)
        }
        let tracker = Key("tracker")
        if container.contains(tracker) {
            switch ProjectSettings.parseTracker(try container.decode(String.self, forKey: tracker)) {
            case .success(let value): change.tracker = value
            case .failure(let refusal): throw APIError(refusal)
            }
        }
        switch (change.tracker, change.trackerLink) {
        case (nil, .unchanged), (ProjectSettings.Tracker.none?, _), (_?, .set): break
        case (nil, _):
            throw APIError(FieldRefusal(field: "trackerLink", code: .trackerLinkFormat,
                                        rule: "be sent together with field 'tracker'"))
        case (let chosen?, _):
            throw APIError(FieldRefusal(field: "trackerLink", code: .trackerLinkFormat,
                                        rule: "be given when the tracker is \(chosen.rawValue)"))
        }
        let emailVerification = Key("emailVerification")
        if container.contains(emailVerification) {
            switch EmailVerification.parse(try container.decode(String.self, forKey: emailVerification)) {
            case .success(let value): change.emailVerification = value
            case .failure(let refusal): throw APIError(refusal)
            }
        }
    }
}
