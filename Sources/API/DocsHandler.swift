import Foundation
import HTTPServer

/// `/docs`: `/openapi.json` rendered for people by Redoc, whose script this build serves itself
/// (`/docs/redoc.standalone.js`, vendored in `Sources/API/Redoc`): no CDN, nothing fetched at run time.
///
/// The script is read from the `Handoff_API.resources` folder next to the executable (where SwiftPM puts it); a
/// deployment that ships the binary without it gets 404 for the script, and the page says so.
enum DocsHandler {
    /// The page: loads the script and points it at `/openapi.json` (relative, so it works behind a path prefix).
    static func page(_ request: Request, _ environment: Environment) -> Response {
        Response(status: 200, headers: Headers([
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                + "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"),
            ("Cache-Control", "no-cache"),
        ]), body: Array(html.utf8))
    }

    /// The vendored Redoc bundle, or 404 when the build's resources were not shipped.
    static func script(_ request: Request, _ environment: Environment) throws -> Response {
        guard let script = Self.scriptBytes else {
            throw APIError(status: 404, code: .notFound, message: "the documentation renderer is not installed")
        }
        return Response(status: 200, headers: Headers([
            ("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "public, max-age=3600"),
        ]), body: script)
    }

    static let scriptBytes: [UInt8]? = {
        let url = Bundle.main.bundleURL.appendingPathComponent("Handoff_API.resources/Redoc/redoc.standalone.js")
        return FileManager.default.contents(atPath: url.path).map(Array.init)
    }()

    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Handoff API</title>
        <style>body { margin: 0; } noscript { display: block; padding: 2em; font-family: sans-serif; }</style>
        </head>
        <body>
        <noscript>This page renders <a href="openapi.json">/openapi.json</a> with JavaScript.</noscript>
        <redoc spec-url="openapi.json"></redoc>
        <script src="docs/redoc.standalone.js"></script>
        </body>
        </html>
        """
}
