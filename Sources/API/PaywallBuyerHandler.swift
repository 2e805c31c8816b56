import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /public/paywall/buyer?projectId=&origin=&id=&pass=`: who the buyer on the paywall is (`PaywallBuyerRule`).
///
/// Rate-limited per client IP (fails closed). Answers `{"success":true,"data":{"guid","source"}}`; nothing usable,
/// a tampered or expired pass, or an unknown project → 404; a guid of another organization → 400
/// `VISITOR_ID_FOREIGN_PROJECT`.
enum PaywallBuyerHandler {
    static func buyer(_ request: Request, _ environment: Environment) throws -> Response {
        let decision = environment.rateLimiter.check(
            environment.paywallBuyerLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let identity = try environment.identity()
        let projectID: ProjectID
        switch ProjectID.parse(request.query["projectId"] ?? "") {
        case .success(let id): projectID = id
        case .failure: throw notFound("no project has this projectId")
        }
        guard let project = try environment.projects.publicProject(projectID) else {
            throw notFound("no project has this projectId")
        }
        let passText = request.query["pass"].flatMap { $0.isEmpty ? nil : $0 }
        let passResult = passText.map { Pass.verify($0, now: environment.clock(), keys: identity.secrets.passKeys) }
        switch PaywallBuyerRule.decide(origin: request.query["origin"], id: request.query["id"],
                                       passResult: passResult) {
        case .notFound:
            throw notFound("no buyer could be identified")
        case .refused(let refusal):
            throw APIError(refusal)
        case .buyer(let guid, let source):
            if let home = try identity.buyers.homeOrganization(of: guid), home != project.orgId {
                throw APIError(status: 400, code: .visitorIDForeignProject,
                               message: "this buyer belongs to another organization")
            }
            return JSONResponse.raw(#"{"success":true,"data":{"guid":"\#(guid)","source":"\#(source.rawValue)"}}"#)
        }
    }

    /// The public 404: `{"statusCode":404,"message":…}` (no machine code, DESIGN §5).
    private static func notFound(_ message: String) -> APIError {
        APIError(status: 404, code: nil, message: message)
    }
}
