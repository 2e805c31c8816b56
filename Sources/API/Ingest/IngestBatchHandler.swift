import Commands
import Crypto
import Domain
import Foundation
import HTTPServer
import Telemetry

/// `POST /v1/m/batch`: an AppBatch v1 (≤ 64 KiB, also once inflated) of the app whose publishable key is `k`
/// (docs/app-ingest.md "Batches").
///
/// In order: the body (gzip inflated under the cap; 413 `too_large`, 400 `invalid` naming the part), the key (403
/// `key`), `app.plat`/`app.bid` (403 `app_mismatch`), the limits per install and per client IP (429 `rate_limited`),
/// consent (`cm`, `cs`: 400 `invalid`), the batch's age (400 past 7
/// days), then the admission rule (`BatchAdmission`): `200 {"ok":true,"stored":false,"rev":N,"reason":…}` for a
/// paused app, a bot or consent without analytics, else the rows are written and `{"ok":true,"stored":true,"rev":N}`.
enum IngestBatchHandler {
    /// Bytes a batch may have once inflated.
    static let inflatedLimit = 64 * 1024

    static func receive(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let body = try AppBatchBody.parse(IngestBody.bytes(request, limit: inflatedLimit))
        guard let app = try environment.model.ingest.lookup.app(publishableKey: body.key) else {
            throw IngestRefusal.key
        }
        if case .failure(let refusal) = IngestAppBinding.check(
            platform: body.platform, bundleId: body.bundleId, app: app.platform, appBundleId: app.bundleId,
            platField: "app.plat", bidField: "app.bid")
        {
            throw refusal
        }
        for (limit, key) in [(environment.ingestBatchInstallLimit, "\(app.appId):\(body.install)"),
                             (environment.ingestBatchAddressLimit, environment.clientKey(request))] {
            if let refusal = APIError.refusal(for: environment.rateLimiter.check(limit, key: key)) { throw refusal }
        }
        let consent = try IngestConsent.parse(mode: body.consentMode, states: body.consentStates).get()
        let now = environment.clock()
        let offset = BatchAdmission.clockOffset(serverNow: now, sentAt: date(body.sentAt))
        let times = [body.sentAt] + body.events.map(\.t) + body.screens.flatMap { [$0.t0] + ($0.t1.map { [$0] } ?? []) }
        try BatchAdmission.checkAge(earliestDeviceTime: date(times.min() ?? body.sentAt),
                                    latestDeviceTime: date(times.max() ?? body.sentAt), offset: offset,
                                    serverNow: now).get()
        if SignupLead.applies(settingOn: app.settings.signupIsLead == true, eventNames: body.events.map(\.name),
                              hasIdentity: !body.identity.isEmpty) {
            try recordSignupLead(body, app: app, context, environment)
        }
        let agent = SDKUserAgent.parse(request.headers["User-Agent"])
        let quota = IngestQuota(dailyBatches: environment.ingestDailyBatches)
        if let reason = BatchAdmission.decide(appEnabled: app.settings.enabled, userAgent: agent, consent: consent,
                                              quotaLeft: { quota.take(project: app.projectId, now: now,
                                                                      redis: environment.redis) }) {
            if reason != .bot, let proof = body.eraseProof,
               let pepper = environment.model.identity?.secrets.lookupPepper {
                try environment.model.ingest.rows.keepEraseProof(org: app.orgId, app: app.appId,
                                                                 installHash: installHash(app, body, pepper),
                                                                 proof: proof)
            }
            return try answer(stored: false, rev: app.rev, reason: reason.rawValue)
        }
        guard let pepper = environment.model.identity?.secrets.lookupPepper else {
            throw IngestRefusal.unavailable(retryAfter: 60)
        }
        let rows = self.rows(body, app: app, agent: agent, consent: consent, offset: offset, pepper: pepper)
        let written = try environment.model.ingest.rows.write(rows)
        // `purchase` hints wait for (or complete) their confirmation by a payment: docs/app-ingest.md "Conversions".
        try environment.model.ingest.recordPurchaseHints.run(rows, metadata: EventMetadata(
            actor: .system("app-purchase-hint"), requestId: context.requestID, correlationId: context.requestID))
        // An identity with attribution granted may move a recorded install to `identity`; its tier was read by the
        // write (nil: not recorded yet, and `POST /v1/m/install` settles it then).
        if let tier = written.identifiedInstallTier {
            try environment.model.ingest.identifyInstall.run(
                org: app.orgId, project: app.projectId, app: app.appId, installHash: rows.installHash,
                recordedTier: tier,
                metadata: EventMetadata(actor: .system("app-identify"), requestId: context.requestID,
                                        correlationId: context.requestID))
        }
        return try answer(stored: true, rev: app.rev, reason: nil)
    }

    /// "Signup is lead": the install's one signup lead (form `account_created`, the identity hashes sealed), taken
    /// whatever the batch's consent and admission, as every lead is.
    private static func recordSignupLead(_ body: AppBatchBody, app: IngestLookup.IngestApp, _ context: RequestContext,
                                         _ environment: Environment) throws {
        guard let identity = environment.model.identity else { throw IngestRefusal.unavailable(retryAfter: 60) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let hashes = String(decoding: try encoder.encode(body.identity), as: UTF8.self)
        let signup = body.events.first { $0.name == SignupLead.eventName }
        let metadata = EventMetadata(actor: .system("app-signup-lead"), requestId: context.requestID,
                                     correlationId: context.requestID)
        _ = try identity.recordAppLead.run(RecordAppLead.Submission(
            orgId: app.orgId, projectId: app.projectId, appId: app.appId, install: body.install,
            sessionId: signup?.session ?? body.session, form: SignupLead.eventName,
            eventId: signup.map { "\($0.session):\($0.n)" }, email: nil, firstName: nil, message: nil,
            marketingConsent: false, fillMs: nil, signupIdentity: hashes), metadata: metadata)
    }

    private static func date(_ milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The rows of an admitted batch: times corrected by `offset`, blocked events and excluded screens dropped, the
    /// install kept only as HMAC-SHA256(lookup pepper, `appId:inst`), the native SDK and the wrapper from the user
    /// agent each in its own field, the session timeout the app's.
    static func rows(_ body: AppBatchBody, app: IngestLookup.IngestApp, agent: SDKUserAgent?, consent: IngestConsent,
                     offset: TimeInterval, pepper: [UInt8]) -> IngestRows {
        func corrected(_ milliseconds: Int) -> Date { date(milliseconds).addingTimeInterval(offset) }
        let blocked = Set(app.settings.blockedEvents)
        let excluded = app.settings.excludedScreens.map(ScreenGlob.init)
        let events = body.events.filter { !blocked.contains($0.name) }.map {
            IngestRows.Event(sessionId: $0.session, n: $0.n, name: $0.name, occurredAt: corrected($0.t),
                             props: $0.props)
        }
        let screens = body.screens.filter { screen in
            !excluded.contains { glob in screen.path.map(glob.matches) ?? false }
        }.map {
            IngestRows.ScreenView(sessionId: body.session, viewId: $0.id, seq: $0.seq, startedAt: corrected($0.t0),
                                  endedAt: $0.t1.map(corrected), nav: $0.nav, path: $0.path, engagedMs: $0.eng,
                                  taps: $0.taps, itaps: $0.itaps)
        }
        let times = [corrected(body.sentAt)] + events.map(\.occurredAt) + screens.map(\.startedAt)
        return IngestRows(
            orgId: app.orgId, projectId: app.projectId, appId: app.appId, installHash: installHash(app, body, pepper),
            session: .init(sessionId: body.session, startedAt: times.min() ?? corrected(body.sentAt),
                           lastSeenAt: times.max() ?? corrected(body.sentAt), sdk: agent?.sdk,
                           sdkVersion: agent?.version, wrapper: agent?.wrapper, wrapperVersion: agent?.wrapperVersion,
                           osVersion: agent?.osVersion, appVersion: body.appVersion, consent: consent.text,
                           timeoutMs: app.settings.sessionTimeoutMs),
            events: events, screenViews: screens, identity: body.identity,
            attributionGranted: consent.usesInstallSources, eraseProof: body.eraseProof)
    }

    /// The install kept only as HMAC-SHA256(lookup pepper, `appId:inst`).
    private static func installHash(_ app: IngestLookup.IngestApp, _ body: AppBatchBody, _ pepper: [UInt8]) -> String {
        Hex.encode(HMAC.sha256(key: pepper, message: Array("\(app.appId):\(body.install)".utf8)))
    }

    /// `{"ok":true,"stored":…,"rev":N,"reason"?:…}`, members in the protocol's order.
    private static func answer(stored: Bool, rev: Int, reason: String?) throws -> Response {
        var json = JSONBytes(capacity: 64)
        json.append(raw: "{\"ok\":true,\"stored\":\(stored),\"rev\":")
        json.append(integer: rev)
        if let reason {
            json.append(raw: ",\"reason\":")
            json.append(string: reason)
        }
        json.append(byte: UInt8(ascii: "}"))
        return JSONResponse.raw(json.bytes)
    }
}
