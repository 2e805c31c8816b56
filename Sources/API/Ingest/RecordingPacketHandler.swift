import Commands
import Crypto
import Domain
import Foundation
import HTTPServer

/// `POST /v1/m/r`: a session-recording packet (`application/octet-stream`, docs/recordings.md).
///
/// In order: the per-IP limit (429 `rate_limited`), the framing and header (400 `invalid` naming the part), the key
/// (403 `key`), `plat`/`bid` (403 `app_mismatch`), `cm`/`cs` (400), the admission rule (`RecordingAdmission`: text
/// `off` while recording is off, consent is not `gg`, or a health app's mode is not `opt_in`; 422 `page_excluded`),
/// the events inflated under the cap (413 `too_large`) and read, then the write: 403 `secret` when the session's
/// first packet fixed another secret, 403 `duplicate` for a stored `seq`, else text `ok`.
enum RecordingPacketHandler {
    /// Bytes a packet's events may have once inflated.
    static let inflatedLimit = 2 * 1024 * 1024

    static func receive(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let decision = environment.rateLimiter.check(environment.ingestRecordingLimit,
                                                     key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let encoding = (request.headers["Content-Encoding"] ?? "identity").lowercased()
        guard encoding == "identity" || encoding.isEmpty else {
            throw IngestRefusal.invalid("Content-Encoding must be absent: the events inside are gzipped")
        }
        let frame = try RecordingFrame.split(request.body).get()
        let header = try RecordingHeader.parse(frame.header)
        guard let app = try environment.model.ingest.lookup.app(publishableKey: header.key) else {
            throw IngestRefusal.key
        }
        if case .failure(let refusal) = IngestAppBinding.check(
            platform: header.platform, bundleId: header.bundleId, app: app.platform, appBundleId: app.bundleId)
        {
            throw refusal
        }
        guard let modeText = header.consentMode else { throw IngestRefusal.invalid("cm is required") }
        guard let mode = IngestConsent.Mode(rawValue: modeText) else {
            throw IngestRefusal.invalid("cm must be always, opt_in or opt_out")
        }
        let states = try RecordingAdmission.parseStates(header.consentStates).get()
        let outcome = try RecordingAdmission.decide(settings: app.settings, mode: mode, states: states,
                                                    screen: header.screen).get()
        guard case .record(let keepsScreenshots) = outcome else { return text("off") }
        let inflated: [UInt8]
        switch GzipInflater.inflate(frame.events, limit: inflatedLimit) {
        case .success(let bytes): inflated = bytes
        case .failure(.tooLarge): throw IngestRefusal.tooLarge
        case .failure(.malformed): throw IngestRefusal.invalid("events are not valid gzip")
        }
        let events = try RecordingEvents.read(inflated, keepsScreenshots: keepsScreenshots)
        guard let pepper = environment.model.identity?.secrets.lookupPepper else {
            throw IngestRefusal.unavailable(retryAfter: 60)
        }
        let now = environment.clock()
        let offset = BatchAdmission.clockOffset(serverNow: now, sentAt: date(header.sentAt))
        let row = RecordingPacketRow(
            orgId: app.orgId, projectId: app.projectId, appId: app.appId, platform: app.platform,
            sessionId: header.session,
            installHash: Hex.encode(HMAC.sha256(key: pepper, message: Array("\(app.appId):\(header.install)".utf8))),
            secretHash: Hex.encode(SHA256.hash(Array(header.secret.utf8))), seq: header.seq, screen: header.screen,
            startedAt: date(events.earliest).addingTimeInterval(offset),
            endedAt: date(events.latest).addingTimeInterval(offset), eventCount: events.count, events: events.ndjson,
            assets: events.assets, receivedAt: now, assetReferences: events.references)
        switch try environment.model.ingest.recordings.write(row) {
        case .stored: return text("ok")
        case .secretMismatch: throw IngestRefusal.secret
        case .duplicate: throw IngestRefusal.duplicate
        }
    }

    private static func date(_ milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    private static func text(_ answer: String) -> Response {
        Response(status: 200, headers: Headers([("Content-Type", "text/plain; charset=utf-8")]),
                 body: Array(answer.utf8))
    }
}
