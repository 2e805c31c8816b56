import Commands
import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Testing
import TestSupport
@testable import Workers

/// A migrated database, a Redis, the AdServices stand-in (`Tests/Peers/adservices_api.py`), the real write model and
/// the `apple-ads` kind over them, with a clock the test moves.
final class AppleAdsJobFixture: @unchecked Sendable {
    static let metadata = EventMetadata(actor: .system("test"))

    let jobs: JobFixture
    let peer: AdServicesPeer
    let model: WriteModel
    let clock = ManualClock()
    let registry: JobRegistry

    init() throws {
        jobs = try JobFixture()
        peer = try AdServicesPeer()
        let secrets = IdentitySecrets(masterKey: Array(repeating: 0x33, count: 32),
                                      lookupPepper: Array(repeating: 0x44, count: 32),
                                      passKeys: [("k1", Array(repeating: 0x11, count: 32))])
        model = WriteModel(pool: jobs.pool, secrets: secrets)
        registry = JobRegistry([AppleAdsJob.kind(baseURL: peer.base,
                                                  keys: SubjectKeys(masterKeys: secrets.masterKeys))])
    }

    /// A new organization with one project and an iOS app: their ids.
    func app() throws -> (org: OrgID, project: ProjectID, app: AppID) {
        let org = try model.createOrganization.run(name: "Org", metadata: Self.metadata)
        let (project, _) = try model.createProject.run(org: org, settings: ProjectSettings(name: "App"),
                                                       metadata: Self.metadata)
        let draft = try AppDraft.parse(platform: "ios", bundleId: "com.example.Reader", appAppleId: nil,
                                       forwardUrl: nil, secrets: [:], fields: .json).get()
        let created = try #require(model.apps).createApp.run(project: project, org: org, draft: draft,
                                                             metadata: Self.metadata)
        guard case .success(let app) = AppID.parse(created.app.appId) else { throw JobFailure("no app id") }
        return (org, project, app)
    }

    /// Records an install of `app` with `token` (tier `pending`) and maybe a deep link, dispatches its jobs; the
    /// install's hash (`given`, or a random one).
    @discardableResult
    func install(_ app: (org: OrgID, project: ProjectID, app: AppID), token: String, link: String? = nil,
                 dispatch: Bool = true, hash given: String? = nil) throws -> String {
        let hash = given ?? Hex.encode(SHA256.hash(Array(UUID().uuidString.utf8)))
        let install = AppInstallRecorded(
            appId: app.app, projectId: app.project, installHash: hash, tier: .pending,
            installedAt: RFC3339.format(clock.now), sdk: "X3Kit", sdkVersion: "1.4.2",
            sources: AppInstallRecorded.Sources())
        _ = try #require(model.identity).recordInstall.run(
            install, journey: InstallJourney(appleAdsToken: token, link: link), orgId: app.org, metadata: Self.metadata)
        if dispatch {
            let event = try #require(try events(app.org, AppInstallRecorded.eventType).last)
            let now = clock.now
            try jobs.pool.transaction { try JobDispatcher.dispatch([event], registry: registry, now: now, on: $0) }
        }
        return hash
    }

    /// Relays what is due and runs it with one consumer; returns how many entries it handled.
    @discardableResult
    func runDue() throws -> Int {
        guard try JobRelay(pool: jobs.pool, redis: jobs.redisPool, registry: registry, clock: clock.function)
            .relayDue() > 0 else { return 0 }
        let consumer = JobConsumer(queue: AppleAdsJob.queue, name: "test-\(UUID().uuidString)", store: jobs.store,
                                   redis: jobs.redisPool, registry: registry, visibilityTimeout: 60,
                                   clock: clock.function, blockMilliseconds: 100)
        var handled = 0
        for _ in 0..<5 { handled += try consumer.step() }
        return handled
    }

    /// `handoff work --only <roles>` against this database, Redis and AdServices stand-in.
    func worker(_ roles: String) throws -> ChildProcess {
        let environment = ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": jobs.database.appURL, "REDIS_URL": jobs.redis.url, "LOG_LEVEL": "warning",
            "WORK_THREADS": "1", "JOB_VISIBILITY_TIMEOUT_SECONDS": "5", "APPLE_ADS_API_BASE_URL": peer.base + "/",
            // The secrets this fixture's write model sealed the install's journey keys with.
            "HANDOFF_MASTER_KEY": ServeProcess.base64URL(0x33), "HANDOFF_LOOKUP_PEPPER": ServeProcess.base64URL(0x44),
            "HANDOFF_PASS_KEYS": "k1:" + ServeProcess.base64URL(0x11),
        ]) { $1 }
        return try ChildProcess([try HandoffBinary.path(), "work", "--only", roles], environment: environment)
    }

    /// The install's row: `tier`, `apple_ads_token`, `apple_ads_attribution`.
    func row(_ hash: String) throws -> Row {
        try #require(try jobs.ownerConnection().query("""
            SELECT tier, apple_ads_token, apple_ads_attribution FROM app_installs WHERE install_hash = $1
            """, [.text(hash)]).rows.first)
    }

    /// The org's events of `type`, oldest first.
    func events(_ org: OrgID, _ type: String) throws -> [RecordedEvent] {
        try EventReader.readHistory(org: org.uuid, on: jobs.ownerConnection()).filter { $0.eventType == type }
    }

    /// The org's jobs, oldest first (the owner's view).
    func appleAdsJobs(_ org: OrgID) throws -> [Job] {
        try JobStore.list(state: nil, org: org.uuid, limit: 100, on: jobs.ownerConnection()).reversed()
    }
}
