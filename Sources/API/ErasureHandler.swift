import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /s2s/v1/users/{guid}/erasure` and `POST /s2s/v1/erasures`: erase buyers' personal data in the key's
/// organization (docs/personal-data.md "Erasure"). Both answer 202 with the erasure's id.
enum ErasureHandler {
    /// Erases buyer `guid`; a body, if any, is ignored. 404 for a guid this organization does not have, a guid of
    /// another organization included (erasure does not tell whose it is).
    static func eraseUser(_ request: Request, _ context: RequestContext, _ environment: Environment,
                          guid text: String) throws -> Response {
        let tenant = try context.tenant()
        let guid: BuyerGuid
        switch BuyerGuid.parse(text) {
        case .success(let value): guid = value
        case .failure(let refusal): throw APIError(refusal)
        }
        let identity = try environment.identity()
        let erased = try identity.eraseBuyer.run(guid, org: tenant.orgId, metadata: metadata(tenant, context))
        return try JSONResponse.encode(ErasedBuyerAnswer(erasureId: erased.erasureId.lowercasedText,
                                                         guid: erased.guid.description), status: 202)
    }

    /// Erases every buyer holding the body's `email` and the address's recovery data.
    static func eraseByEmail(_ request: Request, _ context: RequestContext, _ environment: Environment) throws
        -> Response
    {
        let tenant = try context.tenant()
        let body = try JSONBody.decode(ErasureRequest.self, from: request)
        let identity = try environment.identity()
        let erased = try identity.eraseBuyer.run(email: body.email, org: tenant.orgId,
                                                 metadata: metadata(tenant, context))
        return try JSONResponse.encode(ErasedAddressAnswer(erasureId: erased.erasureId.lowercasedText,
                                                           guids: erased.guids.map(\.description)), status: 202)
    }

    private static func metadata(_ tenant: ProjectLookup.KeyHolder, _ context: RequestContext) -> EventMetadata {
        EventMetadata(actor: .key(prefix: tenant.prefix), requestId: context.requestID,
                      correlationId: context.requestID)
    }
}

/// `{"erasureId","guid"}`.
struct ErasedBuyerAnswer: Encodable {
    var erasureId: String
    var guid: String
}

/// `{"erasureId","guids":[…]}`.
struct ErasedAddressAnswer: Encodable {
    var erasureId: String
    var guids: [String]
}

/// The body of `POST /s2s/v1/erasures`: `{"email"}`, required; other fields refused.
struct ErasureRequest: Decodable {
    var email: EmailAddress

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONField.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: ["email"], what: "a field of an erasure")
        switch EmailAddress.parse(try container.decode(String.self, forKey: JSONField("email"))) {
        case .success(let value): email = value
        case .failure(let refusal): throw APIError(refusal)
        }
    }
}
