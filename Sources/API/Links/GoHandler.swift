import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /v1/go/{ref}`: a go link (issue 21, docs/app-links.md). Records the click with a fresh click token and
/// answers 302 by platform: Android to Google Play with `referrer=utm_…&x3c=<token>`, iPhone/iPad/iPod to the App
/// Store (`pt`, `ct`), everything else to the fallback URL; `Cache-Control: no-store`, `Referrer-Policy:
/// no-referrer`, never a cookie, no body. `?s=` names the web session the visitor came from; `?x3_test=1` marks test
/// traffic.
///
/// With a proxy key in `X-Handoff-Proxy-Key` (a first-party proxy forwarding `<prefix>/go/<code>`), `ref` may also be
/// a link code of the key's organization; without one, codes never resolve, and a wrong key resolves nothing.
///
/// An unknown or malformed `ref`: one fixed plain HTML 404 page, nothing recorded. 60 per minute per client IP
/// (429), 503 while Redis is down (fails closed) or without the identity secrets (the visitor hash is keyed with the
/// lookup pepper).
enum GoHandler {
    static func follow(_ request: Request, _ context: RequestContext, _ environment: Environment, ref: String)
        throws -> Response
    {
        // A proxied request (the edge checked its key, `context.proxyOrg`): the key's org's codes resolve, and the
        // client is the address the proxy forwarded for; a wrong key resolves nothing.
        let proxied = request.headers[ProxyKey.header] != nil
        let decision = environment.rateLimiter.check(environment.goLinkLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let pepper = try environment.identity().secrets.lookupPepper
        let visitor = RecordLinkClick.Visitor(
            clientKey: environment.clientKey(request), userAgent: request.headers["User-Agent"],
            webSession: request.query["s"], test: request.query["x3_test"] == "1")
        if proxied && context.proxyOrg == nil { return notFound }
        guard let outcome = try environment.model.links.recordClick.run(ref: ref, proxyOrg: context.proxyOrg,
                                                                        visitor: visitor,
                                                                        now: environment.clock(), pepper: pepper)
        else { return notFound }
        return Response(status: 302, headers: Headers([
            ("Location", outcome.location), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
        ]))
    }

    /// The one 404 of go links: fixed bytes, no script, no style, nothing of the request echoed.
    static let notFound: Response = {
        let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<title>Not found</title></head><body><h1>Link not found</h1>"
            + "<p>This link does not lead anywhere.</p></body></html>"
        return Response(status: 404, headers: Headers([
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"), ("Content-Security-Policy", "default-src 'none'"),
            ("X-Content-Type-Options", "nosniff"),
        ]), body: Array(html.utf8))
    }()
}
