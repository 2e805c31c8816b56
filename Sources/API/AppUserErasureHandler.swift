import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /v1/projects/{project}/app-users/erase`: the project's server erases a user's app installs
/// (docs/app-ingest.md "Erase"), by user id or e-mail address, hashed as the SDK hashes them; answers
/// `202 {"erasureId","installs":N}`.
/// `project` must be the key's project: another project's or organization's id is 404, as an unknown one.
enum AppUserErasureHandler {
    static func erase(_ request: Request, _ context: RequestContext, _ environment: Environment,
                      project text: String) throws -> Response {
        let tenant = try context.tenant()
        switch ProjectID.parse(text, field: "project") {
        case .success(let project) where project == tenant.projectId: break
        case .success: throw notFound
        case .failure(let refusal): throw APIError(refusal)
        }
        let body = try JSONBody.decode(AppUserErasureRequest.self, from: request)
        let erased = try environment.identity().eraseInstall.user(
            org: tenant.orgId, project: tenant.projectId, userId: body.userId?.text, email: body.email?.text,
            metadata: EventMetadata(actor: .key(prefix: tenant.prefix), requestId: context.requestID,
                                    correlationId: context.requestID))
        return try JSONResponse.encode(Answer(erasureId: erased.erasureId.lowercasedText,
                                              installs: erased.installs), status: 202)
    }

    static let notFound = APIError(status: 404, code: .notFound, message: "no project has this id")

    private struct Answer: Encodable {
        var erasureId: String
        var installs: Int
    }
}

/// The body of `POST /v1/projects/{project}/app-users/erase`: `{"userId"?, "email"?}`, at least one; other fields
/// refused. `userId` follows the external id rule (the app's own user id, as its SDK sends it in `id.xid`).
struct AppUserErasureRequest: Decodable {
    var userId: ExternalID?
    var email: EmailAddress?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONField.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: ["userId", "email"],
                                         what: "a field of an app user erasure")
        if let text = try container.decodeIfPresent(String.self, forKey: JSONField("userId")) {
            switch ExternalID.parse(text, field: "userId") {
            case .success(let value): userId = value
            case .failure(let refusal): throw APIError(refusal)
            }
        }
        if let text = try container.decodeIfPresent(String.self, forKey: JSONField("email")) {
            switch EmailAddress.parse(text) {
            case .success(let value): email = value
            case .failure(let refusal): throw APIError(refusal)
            }
        }
        guard userId != nil || email != nil else {
            throw APIError.validation("field 'userId' or field 'email' is required")
        }
    }
}
