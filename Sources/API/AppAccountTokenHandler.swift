import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /public/app-account-token {"projectId","guid"}`: the buyer's App Store `appAccountToken`, minted once per
/// (organization, guid) and answered the same every time: `{"success":true,"data":{"appAccountToken":"<uuid>"}}`.
///
/// 30 per minute per client IP (503 without Redis: fails closed); 404 for an unknown project, 400
/// `VISITOR_ID_FOREIGN_PROJECT` for a guid of another organization (nothing recorded).
enum AppAccountTokenHandler {
    static func mint(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let decision = environment.rateLimiter.check(environment.appAccountTokenLimit,
                                                     key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let body = try JSONBody.decode(Body.self, from: request)
        let apps = try environment.apps()
        guard try environment.projects.publicProject(body.projectId) != nil else { throw notFound }
        let metadata = EventMetadata(actor: .system("app-account-token"), requestId: context.requestID,
                                     correlationId: context.requestID)
        do {
            let token = try apps.mintAppAccountToken.run(project: body.projectId, guid: body.guid, metadata: metadata)
            return JSONResponse.raw(
                #"{"success":true,"data":{"appAccountToken":"\#(token.lowercasedText)"}}"#)
        } catch let refusal as Refusal where refusal.kind == .notFound {
            throw notFound
        }
    }

    static let notFound = APIError(status: 404, code: nil, message: "no project has this projectId")

    /// `{"projectId","guid"}`, both required, nothing else.
    struct Body: Decodable {
        var projectId: ProjectID
        var guid: BuyerGuid

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONField.self)
            try JSONBody.refuseUnknownFields(in: container, allowed: ["projectId", "guid"],
                                             what: "a field of this request")
            let project = try container.decode(String.self, forKey: JSONField("projectId"))
            let guid = try container.decode(String.self, forKey: JSONField("guid"))
            switch (ProjectID.parse(project), BuyerGuid.parse(guid)) {
            case (.failure(let refusal), _), (_, .failure(let refusal)): throw APIError(refusal)
            case (.success(let project), .success(let guid)):
                self.projectId = project
                self.guid = guid
            }
        }
    }
}
