import Commands
import Domain
import Foundation
import HTTPServer

/// The lookups of issue 4: a buyer, and a buyer's entitlements (S2S and, for devices, public).
enum LookupHandler {
    /// `GET /s2s/v1/users/{guid}`: `{guid, projectId, externalId, emailVerified, createdAt}`; 404 for a guid never
    /// seen, 400 `VISITOR_ID_FOREIGN_PROJECT` for a guid of another organization.
    static func user(_ request: Request, _ context: RequestContext, _ environment: Environment, guid text: String)
        throws -> Response
    {
        let tenant = try context.tenant()
        let buyers = try environment.identity().buyers
        let guid = try parse(text)
        guard let profile = try buyers.profile(of: guid, org: tenant.orgId) else {
            if try buyers.homeOrganization(of: guid) != nil { throw foreign }
            throw APIError(status: 404, code: .notFound, message: "no buyer with this guid")
        }
        return try JSONResponse.encode(profile)
    }

    /// `GET /s2s/v1/users/{guid}/entitlements`: `{guid, active, entitlements:[…]}`.
    static func entitlements(_ request: Request, _ context: RequestContext, _ environment: Environment,
                             guid text: String) throws -> Response
    {
        let tenant = try context.tenant()
        let answer = try entitlements(of: try parse(text), org: tenant.orgId, environment, reader: tenant.prefix)
        return JSONResponse.raw(answer.json())
    }

    /// `GET /public/entitlements?projectId=&guid=`: the same answer wrapped in `{"success":true,"data":…}`;
    /// 60 per minute per client IP, 503 without Redis (fails closed); 404 for an unknown project.
    static func publicEntitlements(_ request: Request, _ environment: Environment) throws -> Response {
        let decision = environment.rateLimiter.check(
            environment.publicEntitlementsLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let buyers = try environment.identity().buyers
        let unknownProject = APIError(status: 404, code: nil, message: "no project has this projectId")
        guard case .success(let projectID) = ProjectID.parse(request.query["projectId"] ?? "") else {
            throw unknownProject
        }
        let guid: BuyerGuid
        do {
            guid = try parse(request.query["guid"] ?? "")
        } catch {
            // An unknown project is named before a bad guid, as it always was (a rare path: one read more).
            if try environment.projects.publicProject(projectID) == nil { throw unknownProject }
            throw error
        }
        let now = environment.clock()
        // One round trip: the project's org, the guid's home org and the payments (`BuyerLookup`).
        let read = try environment.model.reads.read(by: nil) { pool in
            try buyers.entitlements(of: guid, project: projectID, now: now, from: pool)
        }
        switch read {
        case .unknownProject: throw unknownProject
        case .foreign: throw foreign
        case .found(let list):
            return JSONResponse.raw(EntitlementsAnswer(guid: guid.description, entitlements: list).json(wrapped: true))
        }
    }

    /// `reader`: the secret key's prefix (read-your-writes on a replica, `ReadRouting`); nil for public reads.
    private static func entitlements(of guid: BuyerGuid, org: OrgID, _ environment: Environment,
                                     reader: String? = nil) throws -> EntitlementsAnswer
    {
        let buyers = try environment.identity().buyers
        let now = environment.clock()
        let read = try environment.model.reads.read(by: reader) { pool in
            try buyers.entitlements(of: guid, org: org, now: now, from: pool)
        }
        switch read {
        case .foreign: throw foreign
        case .found(let list): return EntitlementsAnswer(guid: guid.description, entitlements: list)
        }
    }

    private static func parse(_ text: String) throws -> BuyerGuid {
        switch BuyerGuid.parse(text) {
        case .success(let guid): return guid
        case .failure(let refusal): throw APIError(refusal)
        }
    }

    static let foreign = APIError(status: 400, code: .visitorIDForeignProject,
                                  message: "'guid' names a buyer of another organization")
}
