import Commands
import Domain
import EventStore
import Foundation
import HTTPClient
import Postgres

/// The `apple-ads` job kind (queue and worker role `apple-ads`, issue 20): resolves an install's Apple Ads
/// (AdServices) token against Apple's attribution API and ends its `pending` tier.
///
/// One job per `AppInstallRecorded` of tier `pending` (dedupe key `apple-ads:<event id>`). Claim phase: read the
/// install (`app_installs`) in the job's org — an install no longer pending ends the job. I/O, no transaction open:
/// `POST <APPLE_ADS_API_BASE_URL>/` with the token as `text/plain`, 10 s at most. Outcome (`AppleAdsResolution`):
/// `AppInstallTierResolved` on the install's stream — `apple_ads` when Apple attributed it, else the next tier by
/// precedence (`link`, `organic`) — which `InstallProjection` folds into the row. A 404 (Apple has no record yet),
/// 5xx, an unreadable answer or none climb the ladder (5 s, 5 s, 5 s, 1 min, 10 min, 1 h: the token lives 24 h);
/// the last attempt resolves as not attributed (`unresolved`), so no install stays `pending`.
public enum AppleAdsJob {
    public static let name = "apple-ads"
    /// Its own queue (and `handoff work --only` role): Apple's latency delays nothing else.
    public static let queue = "apple-ads"
    /// Apple's advice for a 404 (three retries 5 s apart), then longer waits within the token's 24 hours.
    public static let retryDelays: [Double] = [5, 5, 5, 60, 600, 3600]
    /// Apple's documented endpoint (`APPLE_ADS_API_BASE_URL`, without the trailing `/`).
    public static let defaultBaseURL = "https://api-adservices.apple.com/api/v1"
    static let effectTimeout: Double = 10

    /// The kind posting to `baseURL` + `/` with `client`; `keys` open tokens sealed for the install (installs
    /// recorded since `AppInstallRecorded` version 2), nil without `HANDOFF_MASTER_KEY`.
    public static func kind(baseURL: String, client: HTTPClient = HTTPClient(maxResponseBytes: 64 << 10),
                            keys: SubjectKeys?) -> JobKind {
        JobKind(name: name, queue: queue, retryDelays: retryDelays, jobs: jobs(for:)) { run in
            try perform(run, url: baseURL + "/", client: client, keys: keys)
        }
    }

    /// One job for an install recorded `pending`; none for anything else.
    public static func jobs(for event: RecordedEvent) throws -> [NewJob] {
        guard event.eventType == AppInstallRecorded.eventType else { return [] }
        let install = try event.decode(AppInstallRecorded.self)
        guard install.tier == .pending else { return [] }
        let eventId = event.eventId.lowercasedText
        return [NewJob(kind: name, orgId: event.orgId, payload: .object([
            "appId": .string(install.appId), "installHash": .string(install.installHash),
            "eventId": .string(eventId),
        ]), dedupeKey: "apple-ads:\(eventId)")]
    }

    /// What Apple answered: a status and, for a 200, whether it attributed the install and its record.
    struct Answer: Sendable {
        var status: Int?
        var attributed: Bool?
        var record: String?
    }

    static func perform(_ run: JobRun, url: String, client: HTTPClient, keys: SubjectKeys?) throws -> JobPlan {
        let payload = run.job.payload
        guard let org = run.job.orgId, let appText = payload["appId"]?.stringValue,
              case .success(let app) = AppID.parse(appText), let installHash = payload["installHash"]?.stringValue,
              let eventId = payload["eventId"]?.stringValue
        else { throw JobFailure("malformed apple-ads payload", permanent: true) }
        guard let row = try run.transaction.connection.query("""
            SELECT tier, apple_ads_token, link IS NOT NULL AS has_link,
                   coalesce((SELECT i.attribution FROM app_install_identities i
                             WHERE i.app_id = app_installs.app_id AND i.install_hash = app_installs.install_hash
                             ORDER BY i.last_seen_at DESC LIMIT 1), false) AS identified
            FROM app_installs WHERE app_id = $1::uuid AND install_hash = $2
            """, [.text(app.description), .text(installHash)]).rows.first
        else { return .done("skipped: the install is gone") }
        guard try row.string("tier") == InstallTier.pending.rawValue else {
            return .done("skipped: the install is no longer pending")
        }
        // Nil: the install was erased (its token cleared or its key destroyed), so Apple cannot be asked.
        let token = try row["apple_ads_token"].flatMap {
            try opened($0, org: org, installHash: installHash, keys: keys, on: run.transaction.connection)
        }
        let hasLink = try row.bool("has_link")
        // The `identity` tier: an account token whose latest batch granted attribution (docs/app-identity.md).
        let identified = try row.bool("identified")
        let metadata = EventMetadata(actor: Actor(kind: .worker, id: queue), requestId: "job-\(run.job.id)",
                                     correlationId: eventId, causationId: eventId)
        let lastAttempt = run.job.attempt >= retryDelays.count || token == nil
        return .effect(JobEffect(timeout: effectTimeout, perform: { () -> Answer in
            token.map { ask(url: url, token: $0, client: client) } ?? Answer()
        }, record: { answer, recording in
            let decision = AppleAdsResolution.decide(
                status: answer.status, attributed: answer.attributed, record: answer.record,
                lastAttempt: lastAttempt, link: hasLink, identity: identified)
            guard case .resolve(let tier, let reason, let attribution) = decision else {
                if case .retry(let why) = decision { return .failed(JobFailure("Apple Ads: \(why)")) }
                return .failed(JobFailure("Apple Ads: no decision"))
            }
            try recording.transaction.append(
                org: org, stream: IngestStreams.install(app: app, installHash: installHash), expectedVersion: .any,
                events: [try NewEvent(AppInstallTierResolved(appId: app.description, installHash: installHash,
                                                             tier: tier, reason: reason, attribution: attribution))],
                metadata: metadata)
            return .done("\(tier.rawValue) (\(reason))")
        }))
    }

    /// The stored token in clear (`SubjectKeys.journeyKey`); nil once the install's key was destroyed. Throws (to
    /// retry) when a sealed token meets a worker without the master key.
    static func opened(_ stored: String, org: UUID, installHash: String, keys: SubjectKeys?,
                       on connection: Connection) throws -> String? {
        guard let keys else {
            guard SealedValue(stored) == nil else {
                throw JobFailure("Apple Ads: the token is sealed and HANDOFF_MASTER_KEY is not set")
            }
            return stored
        }
        switch try keys.journeyKey(stored, field: .appleAdsToken, org: org, installHash: installHash, on: connection) {
        case .value(let token): return token
        case .erased: return nil
        case .invalid: throw JobFailure("Apple Ads: the stored token does not open", permanent: true)
        }
    }

    /// Posts `token` and reads the answer; never throws (no answer is `status` nil).
    static func ask(url: String, token: String, client: HTTPClient) -> Answer {
        let request = HTTPRequest(method: "POST", url: url, headers: [("Content-Type", "text/plain")],
                                  body: Array(token.utf8), connectTimeout: 5, totalTimeout: effectTimeout)
        guard let response = try? client.send(request) else { return Answer() }
        guard response.status == 200 else { return Answer(status: response.status) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let attributed = object["attribution"] as? Bool,
              let compact = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return Answer(status: 200) }
        return Answer(status: 200, attributed: attributed, record: String(decoding: compact, as: UTF8.self))
    }
}
