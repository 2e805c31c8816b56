import Commands
import Crypto
import Domain
import EventStore
import Foundation

/// The `google-play` job kind (queue `store`, issue 14): asks the Play Developer API what a Google Play purchase is
/// now and applies that to the buyer's entitlements.
///
/// One job per verified `StoreNotificationReceived` of store `google` whose kind is `subscriptionNotification` or
/// `oneTimeProductNotification` (dedupe key `google-play:<event id>`): those name only a purchase token (voided
/// purchases name their order and are applied at intake; test notifications change nothing; an unverified
/// notification is never applied). Claim phase: read the notification (its exact bytes), the app in the job's org
/// with its sealed service-account key opened — an app without a key ends the job `done("skipped: …")` — and commit.
/// I/O, no transaction open: `purchases.subscriptionsv2.get` or `purchases.products.get` with the key's access
/// token (`PlayDeveloperAPI`). Outcome: `PlayPurchaseEffect` of the answer, applied by `ApplyStoreEffect` with the
/// buyer `.candidates([obfuscatedExternalAccountId])`, in the outcome transaction, so the payment events and the
/// job's end commit together. Repeating is harmless: the effect's decider records nothing that is already so.
///
/// Failures climb the ladder — 1 min, 5 min, 30 min, 2 h, 6 h, 24 h, then `dead` (`handoff jobs retry` replays):
/// no answer, 429, 5xx, and 401/403 (Google takes up to a day to grant a new service account access; the ladder
/// outlasts that). A refused assertion, an unknown purchase (404/410), an unusable answer or key go `dead` at once.
public enum GooglePlayJob {
    public static let name = "google-play"
    /// Its own queue (and `handoff work --only` role): Google's latency never delays forwards or mail, and theirs
    /// never delays entitlements.
    public static let queue = "store"
    /// 60 s, 300 s, 1800 s, 7200 s, 21600 s, 86400 s, then `dead`.
    public static let retryDelays: [Double] = [60, 300, 1800, 7200, 21600, 86400]
    /// The notification kinds (`StoreNotificationReceived.notificationType`) that make a job.
    public static let notificationKinds: Set<String> = ["subscriptionNotification", "oneTimeProductNotification"]
    /// The longest the I/O takes: a token exchange and a GET, twice (a 401 renews the token once), 10 s each.
    static let effectTimeout: Double = 41

    /// The kind with its effect.
    public static func kind(settings: GooglePlayJobSettings) -> JobKind {
        JobKind(name: name, queue: queue, retryDelays: retryDelays, jobs: jobs(for:)) { run in
            try perform(run, settings: settings)
        }
    }

    /// One job for a verified Google subscription or one-time product notification; none for anything else.
    public static func jobs(for event: RecordedEvent) throws -> [NewJob] {
        guard event.eventType == StoreNotificationReceived.eventType else { return [] }
        let notification = try event.decode(StoreNotificationReceived.self)
        guard notification.store == NotificationStore.google.rawValue, notification.verified,
              notificationKinds.contains(notification.notificationType) else { return [] }
        let eventId = event.eventId.lowercasedText
        return [NewJob(kind: name, orgId: event.orgId, payload: .object([
            "eventId": .string(eventId), "stream": .string(event.streamId), "appId": .string(notification.appId),
        ]), dedupeKey: "google-play:\(eventId)")]
    }

    static func perform(_ run: JobRun, settings: GooglePlayJobSettings) throws -> JobPlan {
        let payload = run.job.payload
        guard let org = run.job.orgId, let eventText = payload["eventId"]?.stringValue,
              let eventId = UUID(canonicalText: eventText), let appText = payload["appId"]?.stringValue,
              case .success(let appId) = AppID.parse(appText)
        else { throw JobFailure("malformed google-play payload", permanent: true) }
        guard let apps = settings.apps else {
            throw JobFailure("no HANDOFF_MASTER_KEY on this worker: the app's service-account key cannot be opened")
        }
        let connection = run.transaction.connection
        guard let event = try EventReader.readEvent(org: org, eventId: eventId, on: connection),
              event.eventType == StoreNotificationReceived.eventType else {
            throw JobFailure("the notification event is missing", permanent: true)
        }
        let received = try event.decode(StoreNotificationReceived.self)
        guard received.store == NotificationStore.google.rawValue, received.verified,
              received.appId == appId.description else {
            throw JobFailure("the event is not a verified Google notification of the app", permanent: true)
        }
        guard let body = Data(base64Encoded: received.body).map(Array.init),
              case .success(let push) = GoogleNotificationParser.parse(body: body) else {
            throw JobFailure("the notification's body does not read back", permanent: true)
        }
        let notification = push.notification
        guard let query = Query(notification) else { return .done("skipped: the notification names no purchase") }
        guard let app = try apps.lookup.storeApp(org: OrgID(org), appId: appId, on: connection) else {
            return .done("skipped: the app no longer exists")
        }
        guard let keyJSON = app.googleServiceAccountKey else {
            return .done("skipped: the app has no service-account key")
        }
        let api: PlayDeveloperAPI
        switch settings.clients.client(keyJSON: keyJSON) {
        case .success(let client): api = client
        case .failure(let refusal): throw JobFailure(refusal.reason, permanent: true)
        }
        let package = notification.packageName
        let eventTime = Date(timeIntervalSince1970: Double(notification.eventTimeMillis) / 1000)
        let metadata = EventMetadata(actor: Actor(kind: .worker, id: queue), requestId: "job-\(run.job.id)",
                                     correlationId: eventText.lowercased(), causationId: eventText.lowercased())
        let bodyHash = Hex.encode(SHA256.hash(body))
        let applier = apps.applyStoreEffect
        return .effect(JobEffect(timeout: effectTimeout, perform: {
            fetch(query, packageName: package, api: api)
        }, record: { answer, recording in
            let decision: Decision
            switch answer {
            case .failure(let failure): return .failed(jobFailure(failure))
            case .success(let answer): decision = decide(query, answer: answer, eventTime: eventTime)
            }
            guard decision.effect != StoreEffect.none else {
                return .done("no effect: \(decision.reason ?? "none")")
            }
            let buyer = decision.buyerId.map { StoreIntake.BuyerReference.candidates([$0]) } ?? .none
            let guid = try applier.run(decision.effect, buyer: buyer, app: app, store: .google, bodyHash: bodyHash,
                                       notificationEventId: eventId, now: recording.now, metadata: metadata,
                                       in: recording.transaction)
            return .done("\(describe(decision.effect)), buyer \(guid == nil ? "unknown" : "known")")
        }))
    }

    /// The API call of `query`, with no transaction open.
    static func fetch(_ query: Query, packageName: String, api: PlayDeveloperAPI)
        -> Result<Answer, PlayDeveloperAPI.Failure>
    {
        switch query {
        case .subscription(let token, _, _):
            api.subscription(packageName: packageName, token: token).map(Answer.subscription)
        case .product(let sku, let token, _):
            api.product(packageName: packageName, productId: sku, token: token).map(Answer.product)
        }
    }

    /// The failed attempt a failed call makes: retried unless the same call cannot succeed without a change.
    static func jobFailure(_ failure: PlayDeveloperAPI.Failure) -> JobFailure {
        switch failure {
        case .tokenRefused(let status, let error):
            JobFailure("the token endpoint refused the key's assertion (HTTP \(status)"
                + (error.map { ", \($0))" } ?? ")"), permanent: true)
        case .denied(let status):
            JobFailure("the Play Developer API denied the service account (HTTP \(status)): is it given access to "
                + "the app in the Play Console?")
        case .notFound:
            JobFailure("the Play Developer API knows no such purchase (404/410)", permanent: true)
        case .unavailable(let status):
            JobFailure("the Play Developer API is unavailable (HTTP \(status))")
        case .transport(let message):
            JobFailure("no answer from the Play Developer API: \(message)")
        case .malformedResponse(let message):
            JobFailure("the Play Developer API's answer is not usable: \(message)", permanent: true)
        }
    }

    /// The effect as the job's outcome names it: `activate GPA.…`, `expire GPA.…`, `revoke GPA.…`.
    static func describe(_ effect: StoreEffect) -> String {
        switch effect {
        case .activate(let purchase): "activate \(purchase.paymentId.text)"
        case .expire(let paymentId, _): "expire \(paymentId.text)"
        case .revoke(let paymentId, _): "revoke \(paymentId.text)"
        case .transfer: "transfer"
        case .none: "none"
        }
    }
}
