import HTTPServer

/// The replay page (`GET /replay/{token}`): fixed bytes — the vendored player's style and script (this build's own,
/// `/replay-player.css` and `/replay-player.js`, whose start script loads `<this page>/events` and plays them). The
/// Content-Security-Policy admits scripts from this origin only; styles also inline, because the player and the
/// recorded wireframe set style attributes and `<style>` elements in the replay frame.
enum ReplayPageHTML {
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        + "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let page: Response = {
        let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Session replay</title>"
            + "<link rel=\"stylesheet\" href=\"../replay-player.css\"></head><body><main>"
            + "<h1>Session replay</h1><p id=\"status\" class=\"muted\">Loading the recording…</p>"
            + "<div id=\"player\"></div><noscript>The replay plays with JavaScript.</noscript></main>"
            + "<script src=\"../replay-player.js\"></script></body></html>"
        return Response(status: 200, headers: headers, body: Array(html.utf8))
    }()

    /// The one 404 page for a bad, tampered, foreign or expired link: fixed bytes.
    static let notFound: Response = {
        let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>"
            + "<body><main><h1>This replay link is invalid or has expired</h1></main></body></html>"
        return Response(status: 404, headers: headers, body: Array(html.utf8))
    }()

    static var headers: Headers {
        Headers([
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"), ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
        ])
    }
}
