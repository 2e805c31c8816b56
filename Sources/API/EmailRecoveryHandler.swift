import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /public/handoff/email-recovery/request` `{"projectId","email"}`: always 204 with an empty body for a
/// well-formed request — known address, unknown address, unknown project alike; the endpoint only checks the shape
/// and records `EmailRecoveryRequested`, the `recovery-mail` worker decides whether a mail goes out.
///
/// 5 requests per 15 minutes per client IP, then 429 with `Retry-After`; 503 when Redis cannot count (fails closed).
/// A malformed body is a 400 naming the field. `Accept-Language` picks the mail's language (`ru` or `en`).
enum EmailRecoveryHandler {
    static func request(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let decision = environment.rateLimiter.check(
            environment.emailRecoveryLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let body = try JSONBody.decode(EmailRecoveryRequest.self, from: request)
        let identity = try environment.identity()
        let project = try environment.projects.publicProject(body.projectId)
        let metadata = EventMetadata(actor: .system("email-recovery"), requestId: context.requestID,
                                     correlationId: context.requestID)
        try identity.requestEmailRecovery.run(org: project?.orgId, project: body.projectId, email: body.email,
                             language: language(request.headers["Accept-Language"]), metadata: metadata)
        return Response(status: 204)
    }

    /// `ru` when Russian is preferred over English in `Accept-Language` (by q-value, then order), else `en`.
    static func language(_ header: String?) -> String {
        guard let header else { return "en" }
        var best: (language: String, quality: Double)?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let tag = parts.first else { continue }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            guard primary == "en" || primary == "ru" else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0, quality > (best?.quality ?? 0) { best = (primary, quality) }
        }
        return best?.language ?? "en"
    }
}

/// The body of the recovery request: `projectId` and `email`, both required; unknown fields are refused.
struct EmailRecoveryRequest: Decodable {
    var projectId: ProjectID
    var email: EmailAddress

    private typealias Key = JSONField

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: ["projectId", "email"],
                                         what: "a field of a recovery request")
        switch ProjectID.parse(try container.decode(String.self, forKey: Key("projectId"))) {
        case .success(let value): projectId = value
        case .failure(let refusal): throw APIError(refusal)
        }
        switch EmailAddress.parse(try container.decode(String.self, forKey: Key("email"))) {
        case .success(let value): email = value
        case .failure(let refusal): throw APIError(refusal)
        }
    }
}
