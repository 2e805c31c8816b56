import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /s2s/v1/users`: the buyer for an `externalId` and/or an `email` in the key's organization, with a paywall
/// URL carrying a fresh pass.
enum UserHandler {
    static func create(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let body = try JSONBody.decode(UserRequest.self, from: request)
        let identity = try environment.identity()
        let metadata = EventMetadata(actor: .key(prefix: tenant.prefix), requestId: context.requestID,
                                     correlationId: context.requestID)
        let guid = try identity.createBuyer.run(org: tenant.orgId, project: tenant.projectId,
                                                externalId: body.externalId, email: body.email, metadata: metadata)
        guard let project = try environment.projects.project(tenant.projectId, org: tenant.orgId) else {
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
        var paywallURL: String?
        if let text = project.settings.paywallUrl, case .success(let base) = PaywallURL.parse(text) {
            let pass = Pass.issue(guid: guid, projectID: tenant.projectId, now: environment.clock(),
                                  keys: identity.secrets.passKeys)
            paywallURL = HandoffLinks.paywallURL(base: base, pass: pass, email: body.email?.text)
        }
        return try JSONResponse.encode(UserAnswer(guid: guid.description, paywallUrl: paywallURL))
    }
}

/// The answer of `POST /s2s/v1/users`: `{"guid","paywallUrl","user_id"}` (`user_id` equals `guid`; `paywallUrl` is
/// null when the project has none).
struct UserAnswer: Encodable {
    var guid: String
    var paywallUrl: String?

    private enum CodingKeys: String, CodingKey { case guid, paywallUrl, userId = "user_id" }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(guid, forKey: .guid)
        try container.encode(paywallUrl, forKey: .paywallUrl)
        try container.encode(guid, forKey: .userId)
    }
}

/// The body of `POST /s2s/v1/users`: `externalId` and/or `email` (null counts as absent). Unknown fields are
/// refused, so a misspelt `externalID` cannot quietly create a new buyer on every call.
struct UserRequest: Decodable {
    var externalId: ExternalID?
    var email: EmailAddress?

    private typealias Key = JSONField

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: ["externalId", "email"], what: "a field of a user")
        if let text = try container.decodeIfPresent(String.self, forKey: Key("externalId")) {
            switch ExternalID.parse(text) {
            case .success(let value): externalId = value
            case .failure(let refusal): throw APIError(refusal)
            }
        }
        if let text = try container.decodeIfPresent(String.self, forKey: Key("email")) {
            switch EmailAddress.parse(text) {
            case .success(let value): email = value
            case .failure(let refusal): throw APIError(refusal)
            }
        }
        guard externalId != nil || email != nil else {
            throw APIError(status: 400, code: .externalIDOrEmailRequired,
                           message: "field 'externalId' or field 'email' is required")
        }
    }
}
