import Commands
import Domain
import Foundation
import HTTPServer
import Telemetry

/// A recorded session's replay (issue 21, docs/recordings.md "Replay"): a short-lived signed link minted with a secret
/// key (the dashboard link's codec, purpose `replay`), the page it opens, and the session's events the page loads.
enum ReplayHandler {
    /// The most packets one replay loads, read `pageSize` at a time (a packet's events are at most 2 MiB).
    static let maxPackets = 1000
    static let pageSize = 20
    /// The most bytes of events one answer carries: a packet that would pass it is left out (`truncated`).
    static let maxBytes = 32 << 20

    /// `POST /s2s/v1/apps/{appId}/recordings/replay-links {"sessionId"}`: 200 `{"url","token","expiresAt"}`, valid
    /// one hour; 404 for an app of another project or org. The session need not have packets yet.
    static func createLink(_ request: Request, _ context: RequestContext, _ environment: Environment,
                           appId text: String) throws -> Response
    {
        let scope = try AppHandler.scope(text, context)
        let tenant = try context.tenant()
        let body = try JSONBody.decode(Body.self, from: request)
        guard try environment.apps().lookup.app(scope.app, org: tenant.orgId, project: tenant.projectId) != nil
        else {
            throw AppHandler.notFound
        }
        let signed = try DashboardHandler.links(environment).sign(
            .replay, subject: DashboardLinks.bytes(scope.app.uuid) + Array(body.sessionId.utf8),
            project: tenant.projectId, org: tenant.orgId, now: environment.clock())
        return JSONResponse.raw(EventJSON.object([
            "url": .string(environment.publicBaseURL + "/replay/" + signed.token), "token": .string(signed.token),
            "expiresAt": .string(PaymentFields.text(signed.expiresAt)),
        ]).canonicalText)
    }

    /// `GET /replay/{token}`: the player page, or the one 404 page for a bad, tampered or expired link, or one whose
    /// app no longer exists.
    static func page(_ request: Request, _ environment: Environment, token: String) throws -> Response {
        guard try session(token, environment) != nil else { return ReplayPageHTML.notFound }
        return ReplayPageHTML.page
    }

    /// `GET /replay/{token}/events`: `{"sessionId","events":[…],"truncated":bool}`, the session's rrweb events in
    /// packet order (at most `maxPackets` packets and `maxBytes` of events), authorized by the same token; 404 as the
    /// page.
    static func events(_ request: Request, _ environment: Environment, token: String) throws -> Response {
        guard let (claims, appId, sessionId) = try session(token, environment) else {
            throw APIError(status: 404, code: .notFound, message: "this replay link is invalid or has expired")
        }
        var body = JSONBytes(capacity: 65536)
        body.append(raw: "{\"events\":[")
        var after = -1
        var count = 0
        var first = true
        var truncated = false
        while true {
            let page = try environment.model.ingest.recordings.packets(
                org: claims.org, appId: appId, sessionId: sessionId, after: after, limit: pageSize)
            for packet in page {
                if count == maxPackets || body.bytes.count + packet.events.count > maxBytes {
                    truncated = true
                    break
                }
                count += 1
                // Each stored line is one JSON object (checked on the way in).
                for line in packet.events.split(separator: UInt8(ascii: "\n")) {
                    if !first { body.append(byte: UInt8(ascii: ",")) }
                    first = false
                    body.append(raw: String(decoding: line, as: UTF8.self))
                }
                after = packet.seq
            }
            if truncated || page.count < pageSize { break }
        }
        body.append(raw: "],\"sessionId\":")
        body.append(string: sessionId)
        body.append(raw: ",\"truncated\":")
        body.append(raw: truncated ? "true" : "false")
        body.append(byte: UInt8(ascii: "}"))
        return Response(status: 200, headers: Headers([
            ("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
            ("X-Content-Type-Options", "nosniff"),
        ]), body: body.bytes)
    }

    /// `GET /replay/{token}/assets/{sha}`: the screenshot of the token's app whose SHA-256 is `sha` (a replay asset,
    /// kept once per content for the app), with its stored type; 404 `NOT_FOUND` for a bad or expired token, a `sha`
    /// that is not 64 lowercase hex digits, or no such screenshot (screenshots off, another app's, gone by retention).
    static func screenshot(_ request: Request, _ environment: Environment, token: String, sha: String) throws
        -> Response
    {
        let notFound = APIError(status: 404, code: .notFound, message: "no such screenshot for this replay link")
        guard sha.utf8.count == 64,
              sha.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let (claims, appId, _) = try session(token, environment),
              let asset = try environment.model.ingest.recordings.asset(org: claims.org, appId: appId, sha256: sha)
        else { throw notFound }
        return Response(status: 200, headers: Headers([
            ("Content-Type", asset.mime), ("Cache-Control", "private, max-age=3600"),
            ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "default-src 'none'; sandbox"),
        ]), body: asset.bytes)
    }

    /// `GET /replay-player.js` and `/replay-player.css`: the vendored player (and the page's own start script after
    /// it), or 404 when the build's resources were not shipped.
    static func asset(_ request: Request, _ environment: Environment, script: Bool) throws -> Response {
        guard let bytes = script ? ReplayPlayerFiles.script : ReplayPlayerFiles.style else {
            throw APIError(status: 404, code: .notFound, message: "the replay player is not installed")
        }
        return Response(status: 200, headers: Headers([
            ("Content-Type", script ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8"),
            ("Cache-Control", "public, max-age=3600"), ("X-Content-Type-Options", "nosniff"),
        ]), body: bytes)
    }

    /// The claims, app and session a replay token names, or nil when it does not open or its app is gone.
    static func session(_ token: String, _ environment: Environment) throws
        -> (DashboardLinks.Claims, AppID, String)?
    {
        guard let claims = try DashboardHandler.links(environment).open(token, purpose: .replay,
                                                                        now: environment.clock()),
              claims.subject.count > 16,
              let sessionId = String(validating: claims.subject.dropFirst(16), as: UTF8.self)
        else { return nil }
        let appId = AppID(UUID(uuid: DashboardLinks.uuid(claims.subject.prefix(16))))
        guard try environment.apps().lookup.app(appId, org: claims.org, project: claims.project) != nil else {
            return nil
        }
        return (claims, appId, sessionId)
    }

    /// `{"sessionId"}`: the SDK's session id, 1 to 64 characters, no control character (as the recordings' list).
    struct Body: Decodable {
        var sessionId: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONField.self)
            try JSONBody.refuseUnknownFields(in: container, allowed: ["sessionId"], what: "a field of this request")
            let sessionId = try container.decode(String.self, forKey: JSONField("sessionId"))
            guard RecordingListHandler.isSessionId(sessionId) else {
                throw APIError.validation("sessionId must be 1 to 64 characters of text, no control character")
            }
            self.sessionId = sessionId
        }
    }
}
