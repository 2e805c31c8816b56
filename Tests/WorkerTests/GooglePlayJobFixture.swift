import Commands
import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Testing
import TestSupport
@testable import Workers

/// A migrated database, a Redis, the Play Developer API stand-in (`Tests/Peers/play_api.py`), the real write model
/// (orgs, projects, buyers, apps with sealed keys) and the `google-play` kind over them, with a clock the test moves.
final class GooglePlayJobFixture: @unchecked Sendable {
    static let package = "com.example.app"
    static let metadata = EventMetadata(actor: .system("test"))
    static let masterKey: [UInt8] = Array(repeating: 0x33, count: 32)

    let jobs: JobFixture
    let peer: PlayAPIPeer
    let model: WriteModel
    let clock = ManualClock()
    let registry: JobRegistry

    /// With `masterKey: false` the job kind gets no app model, as on a worker without `HANDOFF_MASTER_KEY`.
    init(masterKey: Bool = true) throws {
        jobs = try JobFixture()
        peer = try PlayAPIPeer()
        let secrets = IdentitySecrets(masterKey: Self.masterKey,
                                      lookupPepper: Array(repeating: 0x44, count: 32),
                                      passKeys: [("k1", Array(repeating: 0x11, count: 32))])
        model = WriteModel(pool: jobs.pool, secrets: secrets)
        registry = JobRegistry([GooglePlayJob.kind(settings: GooglePlayJobSettings(
            apps: masterKey ? model.apps : nil, baseURL: peer.base))])
    }

    var apps: AppModel { model.apps! }
    var identity: IdentityModel { model.identity! }

    /// A new organization with one project.
    func tenant() throws -> (org: OrgID, project: ProjectID) {
        let org = try model.createOrganization.run(name: "Org", metadata: Self.metadata)
        let (project, _) = try model.createProject.run(org: org, settings: ProjectSettings(name: "App"),
                                                       metadata: Self.metadata)
        return (org, project)
    }

    /// An Android app of `tenant`'s project for `package`, with the peer's service-account key unless `key` says
    /// otherwise (nil: none); its store app as intake reads it.
    func app(_ tenant: (org: OrgID, project: ProjectID), package: String = package, key: String?? = .none) throws
        -> AppLookup.StoreApp
    {
        var secrets: [AppSecretKind: String] = [:]
        if let text = key ?? peer.keyFile() { secrets[.googleServiceAccountKey] = text }
        let draft = try AppDraft.parse(platform: "android", bundleId: package, appAppleId: nil, forwardUrl: nil,
                                       secrets: secrets, fields: .json).get()
        let created = try apps.createApp.run(project: tenant.project, org: tenant.org, draft: draft,
                                             metadata: Self.metadata)
        return try #require(try apps.lookup.storeApp(token: created.storeToken.text))
    }

    /// A new buyer of `tenant`: its guid.
    func buyer(_ tenant: (org: OrgID, project: ProjectID)) throws -> String {
        let external = try ExternalID.parse("u-\(UUID().uuidString)").get()
        return try identity.createBuyer.run(org: tenant.org, project: tenant.project, externalId: external, email: nil,
                                            metadata: Self.metadata).description
    }

    /// A Pub/Sub push of `notification` (the `DeveloperNotification` member, e.g. `"subscriptionNotification":{…}`).
    static func push(_ notification: String, package: String = package, eventTimeMillis: Int64 = 1_750_000_000_000,
                     messageId: String = String(UInt64.random(in: 1...UInt64.max))) -> [UInt8] {
        let inner = #"{"version":"1.0","packageName":"\#(package)","eventTimeMillis":"\#(eventTimeMillis)","#
            + notification + "}"
        let data = Data(inner.utf8).base64EncodedString()
        return Array((#"{"message":{"data":"\#(data)","messageId":"\#(messageId)","publishTime":"#
            + #""2025-06-15T15:06:40Z"},"subscription":"projects/p-1/subscriptions/handoff"}"#).utf8)
    }

    static func subscription(type: Int, token: String) -> String {
        #""subscriptionNotification":{"version":"1.0","notificationType":\#(type),"purchaseToken":"\#(token)","#
            + #""subscriptionId":"monthly001"}"#
    }

    static func oneTime(type: Int, sku: String, token: String) -> String {
        #""oneTimeProductNotification":{"version":"1.0","notificationType":\#(type),"purchaseToken":"\#(token)","#
            + #""sku":"\#(sku)"}"#
    }

    /// A subscription as `purchases.subscriptionsv2.get` answers, for `buyer`, order `order`, expiring `expiry`.
    static func subscriptionAnswer(buyer: String?, order: String, expiry: String, product: String = "monthly001",
                                   units: String = "9", nanos: Int = 990_000_000, currency: String = "USD") -> String {
        let account = buyer.map { #""externalAccountIdentifiers":{"obfuscatedExternalAccountId":"\#($0)"},"# } ?? ""
        return #"{"kind":"androidpublisher#subscriptionPurchaseV2","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","#
            + #""acknowledgementState":"ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",\#(account)"latestOrderId":"\#(order)","#
            + #""lineItems":[{"productId":"\#(product)","expiryTime":"\#(expiry)","latestSuccessfulOrderId":"#
            + #""\#(order)","autoRenewingPlan":{"autoRenewEnabled":true,"recurringPrice":{"currencyCode":"#
            + #""\#(currency)","units":"\#(units)","nanos":\#(nanos)}}}]}"#
    }

    /// A one-time product purchase as `purchases.products.get` answers.
    static func productAnswer(buyer: String?, order: String, product: String, state: Int = 0) -> String {
        let account = buyer.map { #""obfuscatedExternalAccountId":"\#($0)","# } ?? ""
        return #"{"kind":"androidpublisher#productPurchase","purchaseTimeMillis":"1750000000123","# +
            #""purchaseState":\#(state),"consumptionState":0,"orderId":"\#(order)","purchaseType":0,"# +
            #""acknowledgementState":1,"productId":"\#(product)","quantity":1,\#(account)"regionCode":"DE"}"#
    }

    /// Takes `body` in at `app`'s Google URL as intake does (`GoogleIntake`), verified as a push whose OIDC token
    /// checked out would be, records it (`ReceiveStoreNotification`) and, unless told not to, dispatches its jobs;
    /// the event.
    @discardableResult
    func receive(_ body: [UInt8], app: AppLookup.StoreApp, verified: Bool = true, dispatch: Bool = true) throws
        -> RecordedEvent
    {
        var intake = try GoogleIntake(keys: nil).make(body: body, authorization: nil, app: app,
                                                      storeURL: "https://handoff.test/v1/m/store/google/t",
                                                      now: clock.now).get()
        intake.verified = verified
        guard case .recorded(let eventId) = try apps.receiveStoreNotification.run(intake, now: clock.now,
                                                                                 metadata: Self.metadata)
        else { throw JobFailure("the notification was a duplicate") }
        let event = try #require(try EventReader.readEvent(org: app.orgId.uuid, eventId: eventId,
                                                           on: jobs.ownerConnection()))
        if dispatch { try self.dispatch(event) }
        return event
    }

    func dispatch(_ event: RecordedEvent) throws {
        let now = clock.now
        try jobs.pool.transaction { try JobDispatcher.dispatch([event], registry: registry, now: now, on: $0) }
    }

    /// Relays what is due and runs it with one consumer; returns how many entries it handled.
    @discardableResult
    func runDue() throws -> Int {
        guard try JobRelay(pool: jobs.pool, redis: jobs.redisPool, registry: registry, clock: clock.function)
            .relayDue() > 0 else { return 0 }
        let consumer = JobConsumer(queue: GooglePlayJob.queue, name: "test-\(UUID().uuidString)", store: jobs.store,
                                   redis: jobs.redisPool, registry: registry, visibilityTimeout: 60,
                                   clock: clock.function, blockMilliseconds: 100)
        var handled = 0
        for _ in 0..<5 { handled += try consumer.step() }
        return handled
    }

    /// `handoff work --only <roles>` against this database, Redis and API stand-in, with this fixture's master key.
    func worker(_ roles: String) throws -> ChildProcess {
        let environment = ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": jobs.database.appURL, "REDIS_URL": jobs.redis.url, "LOG_LEVEL": "warning",
            "WORK_THREADS": "1", "JOB_VISIBILITY_TIMEOUT_SECONDS": "5",
            "HANDOFF_MASTER_KEY": Base64URL.encode(Self.masterKey), "GOOGLE_PLAY_API_BASE_URL": peer.base,
        ]) { $1 }
        return try ChildProcess([try HandoffBinary.path(), "work", "--only", roles], environment: environment)
    }

    /// The org's jobs, oldest first (the owner's view).
    func playJobs(_ org: OrgID) throws -> [Job] {
        try JobStore.list(state: nil, org: org.uuid, limit: 100, on: jobs.ownerConnection()).reversed()
    }

    /// The org's events of `type`, oldest first.
    func events(_ org: OrgID, _ type: String) throws -> [RecordedEvent] {
        try EventReader.readHistory(org: org.uuid, on: jobs.ownerConnection()).filter { $0.eventType == type }
    }

    /// The buyer's entitlements, judged at `now`.
    func entitlements(_ guid: String, _ org: OrgID, now: Date) throws -> [BuyerLookup.Entitlement] {
        switch try identity.buyers.entitlements(of: try BuyerGuid.parse(guid).get(), org: org, now: now) {
        case .found(let list): return list
        case .foreign: throw AdminFailed(outcome: "guid \(guid) is another organization's")
        }
    }

    /// How many Play Developer API calls the peer answered.
    func apiCalls() throws -> Int { try peer.stats()["apiCalls"] as? Int ?? -1 }
}
