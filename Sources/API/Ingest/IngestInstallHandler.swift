import Commands
import Crypto
import Domain
import EventStore
import Foundation
import HTTPServer

/// `POST /v1/m/install`: an install's first open with its sources (≤ 16 KiB, also once inflated), answered
/// `200 {"ok":true,"tier":T}` (docs/app-ingest.md "Installs").
///
/// In order: the body (400 `invalid` naming the part, 413 `too_large`), the key (403 `key`), `app.plat`/`app.bid`
/// (403 `app_mismatch`), consent (400 `invalid`), a paused app (403 `disabled`). Then the tier (`InstallAttribution`)
/// is recorded once per install as `AppInstallRecorded`; a re-sent install answers the tier recorded first. Sources
/// are used and kept only when `cs` grants attribution; else the tier is `unknown` and nothing of them is stored.
enum IngestInstallHandler {
    /// Bytes an install may have once inflated.
    static let inflatedLimit = 16 * 1024
    /// How long before now a corrected first open may lie (as for a batch's times).
    static let firstOpenWindow: TimeInterval = 7 * 86400

    static func receive(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let body = try AppInstallBody.parse(IngestBody.bytes(request, limit: inflatedLimit))
        guard let app = try environment.model.ingest.lookup.app(publishableKey: body.key) else {
            throw IngestRefusal.key
        }
        if case .failure(let refusal) = IngestAppBinding.check(
            platform: body.platform, bundleId: body.bundleId, app: app.platform, appBundleId: app.bundleId,
            platField: "app.plat", bidField: "app.bid")
        {
            throw refusal
        }
        let consent = try IngestConsent.parse(mode: body.consentMode, states: body.consentStates).get()
        guard app.settings.enabled else { throw IngestRefusal.disabled }
        guard let identity = environment.model.identity else { throw IngestRefusal.unavailable(retryAfter: 60) }
        let pepper = identity.secrets.lookupPepper
        let now = environment.clock()
        let agent = SDKUserAgent.parse(request.headers["User-Agent"])
        let identified = try environment.model.ingest.identifyInstall.isIdentified(
            org: app.orgId, app: app.appId, installHash: installHash(app, body, pepper))
        // Issue 21: an `x3c` counts only when it names a click of the app's project (a primary-key lookup).
        let x3c = consent.usesInstallSources ? body.play.flatMap { PlayReferrer.parse($0.referrer).x3c } : nil
        let clickLink = try x3c.flatMap {
            try environment.model.links.clicks.link(ofClick: $0, org: app.orgId, project: app.projectId)
        }
        var (install, journey) = recorded(body, app: app, consent: consent, agent: agent, now: now, pepper: pepper,
                                          clickLink: clickLink, identified: identified)
        if let utmContent = install.sources.utmContent, MetaInstallReferrer.isMeta(utmContent) {
            // Meta's encrypted referrer names this one install's ad click: a journey key, not a campaign field.
            install.sources.utmContent = nil
            journey.metaUtmContent = utmContent
            journey.metaReferrer = try metaCampaign(utmContent, app: app, environment)
        }
        let metadata = EventMetadata(actor: .system("app-install"), requestId: context.requestID,
                                     correlationId: context.requestID)
        let outcome = try identity.recordInstall.run(install, journey: journey, orgId: app.orgId, metadata: metadata)
        var tier = outcome.tier
        if outcome.recorded {
            // A batch stored at the same instant may have left its account token after `identified` was read.
            tier = try environment.model.ingest.identifyInstall.settle(
                org: app.orgId, project: app.projectId, app: app.appId, installHash: install.installHash,
                recorded: tier, metadata: metadata)
        }
        return try IngestResponse.encode(Answer(tier: tier.rawValue))
    }

    /// The install's event and its journey keys (in clear, sealed by `RecordInstall`): its tier from the sources
    /// (only with attribution consent), the first open corrected by serverNow − `at` (one outside the 7 days before
    /// now is taken as now), the install kept only as HMAC-SHA256(lookup pepper, `appId:inst`). `clickLink` is the go
    /// link of the click `x3c` names, if known; `identified`: batches before it left an account token whose latest
    /// batch granted attribution (the `identity` tier).
    static func recorded(_ body: AppInstallBody, app: IngestLookup.IngestApp, consent: IngestConsent,
                         agent: SDKUserAgent?, now: Date, pepper: [UInt8], clickLink: GoLinkID? = nil,
                         identified: Bool = false) -> (AppInstallRecorded, InstallJourney) {
        let offset = now.timeIntervalSince1970 - Double(body.sentAt) / 1000
        var firstOpen = Date(timeIntervalSince1970: Double(body.firstOpenAt ?? body.sentAt) / 1000 + offset)
        if firstOpen > now || firstOpen < now.addingTimeInterval(-firstOpenWindow) { firstOpen = now }
        let referrer = body.play.map { PlayReferrer.parse($0.referrer) }
        let tier = InstallAttribution.tier(consent: consent, play: referrer?.counted(clickKnown: clickLink != nil),
                                           appleAds: body.appleAdsToken == nil ? .none : .unresolved,
                                           link: body.link != nil, identity: identified)
        var sources = AppInstallRecorded.Sources()
        var journey = InstallJourney()
        if consent.usesInstallSources {
            sources = AppInstallRecorded.Sources(
                utmSource: referrer?.utmSource, utmMedium: referrer?.utmMedium, utmCampaign: referrer?.utmCampaign,
                utmTerm: referrer?.utmTerm, utmContent: referrer?.utmContent, goLinkId: clickLink?.description)
            journey = InstallJourney(x3c: referrer?.x3c, gclid: referrer?.gclid,
                                     appleAdsToken: tier == .pending ? body.appleAdsToken : nil, link: body.link)
        }
        let install = AppInstallRecorded(
            appId: app.appId, projectId: app.projectId, installHash: installHash(app, body, pepper), tier: tier,
            installedAt: RFC3339.format(firstOpen), sdk: agent?.sdk, sdkVersion: agent?.version,
            wrapper: agent?.wrapper, wrapperVersion: agent?.wrapperVersion, sources: sources)
        return (install, journey)
    }

    /// The campaign a Meta Install Referrer in `utmContent` names, decrypted with the app's key; nil without either
    /// (the key is read only for Meta's shape; a server without the master key decrypts nothing).
    static func metaCampaign(_ utmContent: String?, app: IngestLookup.IngestApp, _ environment: Environment) throws
        -> String?
    {
        guard let utmContent, MetaInstallReferrer.isMeta(utmContent), let apps = try? environment.apps(),
              let key = try apps.lookup.metaInstallReferrerKey(app: app.appId, org: app.orgId)
        else { return nil }
        return MetaInstallReferrer.campaign(utmContent: utmContent, keyHex: key)
    }

    /// The install kept only as HMAC-SHA256(lookup pepper, `appId:inst`), as batches keep it.
    private static func installHash(_ app: IngestLookup.IngestApp, _ body: AppInstallBody,
                                    _ pepper: [UInt8]) -> String {
        Hex.encode(HMAC.sha256(key: pepper, message: Array("\(app.appId):\(body.install)".utf8)))
    }

    private struct Answer: Encodable {
        var ok = true
        var tier: String
    }
}
