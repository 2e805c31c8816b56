import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /a/{refCode}?p=<projectId>`: an affiliate's link (issue 15). Records the click (`AffiliateLinkClicked`, no
/// IP address or user agent kept) and answers 302 to the project's landing URL (else its paywall URL) with
/// `click=<signedClickId>` added; `Cache-Control: no-store`, `Referrer-Policy: no-referrer`, no cookie, no body.
///
/// `p` names the project; without it the code resolves only when exactly one project of the deployment holds it.
/// An unknown or malformed code or `p`, an ambiguous bare code, or a project with neither a landing nor a paywall
/// URL: one fixed plain HTML 404 page, nothing recorded. 60 per minute per client IP (429), 503 while Redis is down
/// (fails closed) or without the identity secrets (the click id is signed with the pass keys).
enum ClickHandler {
    static func follow(_ request: Request, _ context: RequestContext, _ environment: Environment, refCode text: String)
        throws -> Response
    {
        let decision = environment.rateLimiter.check(environment.affiliateLinkLimit,
                                                     key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let keys = try environment.identity().secrets.passKeys
        guard case .success(let code) = RefCode.parse(text) else { return notFound }
        var project: ProjectID?
        if let named = request.query["p"] {
            guard case .success(let id) = ProjectID.parse(named) else { return notFound }
            project = id
        }
        let metadata = EventMetadata(actor: .system("affiliate-link"), requestId: context.requestID,
                                     correlationId: context.requestID)
        guard let redirect = try environment.model.affiliates.recordClick.run(
            code: code, project: project, now: environment.clock(), keys: keys, metadata: metadata)
        else { return notFound }
        return Response(status: 302, headers: Headers([
            ("Location", redirect.location), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
        ]))
    }

    /// The one 404 of affiliate links: fixed bytes, no script, no style, nothing of the request echoed.
    static let notFound: Response = {
        let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<title>Not found</title></head><body><h1>Link not found</h1>"
            + "<p>This referral link does not lead anywhere.</p></body></html>"
        return Response(status: 404, headers: Headers([
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"), ("Content-Security-Policy", "default-src 'none'"),
            ("X-Content-Type-Options", "nosniff"),
        ]), body: Array(html.utf8))
    }()
}
