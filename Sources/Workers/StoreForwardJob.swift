import Domain
import EventStore
import Foundation

/// What the `store-forward` job kind needs: the forwarder (SSRF guard, TLS, keep-alive) and the destination lookup.
public struct StoreForwardSettings: Sendable {
    public var forwarder: Forwarder
    public var targets: any ForwardTargets

    public init(forwarder: Forwarder, targets: any ForwardTargets) {
        self.forwarder = forwarder
        self.targets = targets
    }
}

/// The `store-forward` job kind (queue `forward`, issue 14): forwards one verified store notification, byte for
/// byte and signed, to one destination of its app, after the store got its answer.
///
/// One job per destination listed in a verified `StoreNotificationReceived` (dedupe key
/// `store-forward:<event id>:<destination id>`). Claim phase: load the notification (its exact bytes: the event's
/// base64 `body`) and the destination with the store token the notification arrived under (`ForwardTargets`), build
/// the request (`StoreForwardRequest`; attribloom's timestamp is fixed at the first attempt and kept on the job, so
/// retries send identical bytes and headers). I/O: one POST through the `Forwarder`, no transaction open. Outcome:
/// `NotificationForwarded` (2xx) or `ForwardFailed` on stream `forward-<event id>-<destination id>`, then done or the
/// next rung of the ladder — 1 min, 5 min, 30 min, 2 h, 6 h, 24 h, then `dead` (`handoff jobs retry` replays).
public enum StoreForwardJob {
    public static let name = "store-forward"
    public static let queue = "forward"
    /// 60 s, 300 s, 1800 s, 7200 s, 21600 s, 86400 s, then `dead`.
    public static let retryDelays: [Double] = [60, 300, 1800, 7200, 21600, 86400]

    /// The kind with its effect.
    public static func kind(settings: StoreForwardSettings) -> JobKind {
        JobKind(name: name, queue: queue, retryDelays: retryDelays, jobs: jobs(for:)) { run in
            try perform(run, settings: settings)
        }
    }

    /// One job per destination of a verified `StoreNotificationReceived`; none for an unverified one.
    public static func jobs(for event: RecordedEvent) throws -> [NewJob] {
        guard event.eventType == StoreNotificationReceived.eventType else { return [] }
        let notification = try event.decode(StoreNotificationReceived.self)
        guard notification.verified else { return [] }
        let eventId = event.eventId.lowercasedText
        return Array(Set(notification.destinations)).sorted().map { destination in
            NewJob(kind: name, orgId: event.orgId, payload: .object([
                "eventId": .string(eventId), "stream": .string(event.streamId), "appId": .string(notification.appId),
                "destinationId": .string(destination), "storeTokenHash": .string(notification.storeTokenHash),
            ]), dedupeKey: "store-forward:\(eventId):\(destination)")
        }
    }

    static func perform(_ run: JobRun, settings: StoreForwardSettings) throws -> JobPlan {
        let payload = run.job.payload
        guard let org = run.job.orgId, let eventText = payload["eventId"]?.stringValue,
              let eventId = UUID(canonicalText: eventText), let appId = payload["appId"]?.stringValue,
              let destinationId = payload["destinationId"]?.stringValue,
              let tokenHash = payload["storeTokenHash"]?.stringValue
        else { throw JobFailure("malformed store-forward payload", permanent: true) }
        guard let event = try EventReader.readEvent(org: org, eventId: eventId, on: run.transaction.connection),
              event.eventType == StoreNotificationReceived.eventType else {
            throw JobFailure("the notification event is missing", permanent: true)
        }
        let notification = try event.decode(StoreNotificationReceived.self)
        guard let received = Data(base64Encoded: notification.body).map(Array.init) else {
            throw JobFailure("the notification body is not base64", permanent: true)
        }
        guard let target = try settings.targets.target(org: org, appId: appId, destinationId: destinationId,
                                                       storeTokenHash: tokenHash, on: run.transaction) else {
            return .done("skipped: the destination or its store token no longer exists")
        }
        let request: (headers: [(String, String)], body: [UInt8])
        switch target.scheme {
        case .x3:
            request = StoreForwardRequest.x3(body: received, token: target.signingToken)
        case .attribloom:
            guard notification.store == NotificationStore.apple.rawValue else {
                return .done("skipped: attribloom takes App Store notifications only")
            }
            guard let secret = target.secret, !secret.isEmpty else {
                throw JobFailure("the attribloom destination has no secret", permanent: true)
            }
            let timestamp = try firstAttemptTimestamp(run)
            do {
                request = try StoreForwardRequest.attribloom(received: received, secret: secret, timestamp: timestamp)
            } catch {
                throw JobFailure(error.reason, permanent: true)
            }
        }
        let facts = ForwardAttemptFacts(
            appId: appId, notificationEventId: eventText.lowercased(), destinationId: destinationId,
            scheme: target.scheme.rawValue, urlHost: "", status: nil, error: nil, durationMs: 0, answer: "",
            attempt: 0, jobId: run.job.id)
        let metadata = EventMetadata(actor: Actor(kind: .worker, id: queue), requestId: "job-\(run.job.id)",
                                     correlationId: eventText.lowercased(), causationId: eventText.lowercased())
        let forwarder = settings.forwarder
        let url = target.url
        return .effect(JobEffect(timeout: forwarder.settings.timeout + 1, perform: {
            forwarder.post(url: url, headers: request.headers, body: request.body)
        }, record: { attempt, recording in
            try record(attempt, facts: facts, org: org, eventId: eventId, metadata: metadata, recording: recording)
        }))
    }

    /// The attribloom timestamp: the one kept on the job by its first attempt, else now (kept for the retries).
    private static func firstAttemptTimestamp(_ run: JobRun) throws -> String {
        if let kept = run.job.memo["timestamp"]?.stringValue { return kept }
        let timestamp = String(Int64(run.now.timeIntervalSince1970.rounded(.down)))
        try run.remember(.object(["timestamp": .string(timestamp)]))
        return timestamp
    }

    /// Appends the attempt's event and gives the verdict: 2xx done; anything else the next rung of the ladder (a
    /// body over 1 MiB is never sent: `dead` at once).
    private static func record(_ attempt: ForwardAttempt, facts: ForwardAttemptFacts, org: UUID, eventId: UUID,
                               metadata: EventMetadata, recording: JobRecording) throws -> JobVerdict {
        var facts = facts
        facts.urlHost = attempt.host
        facts.status = attempt.status
        facts.error = attempt.error
        facts.durationMs = max(0, attempt.durationMs)
        facts.answer = DeliveryAnswer.excerpt(attempt.answer)
        facts.attempt = recording.job.attempt + 1
        let event = attempt.succeeded
            ? try NewEvent(NotificationForwarded(facts)) : try NewEvent(ForwardFailed(facts))
        let stream = DeliveryStreams.forward(notificationEventId: eventId, destinationId: facts.destinationId)
        try recording.transaction.append(org: org, stream: stream, expectedVersion: .any, events: [event],
                                         metadata: metadata)
        if attempt.succeeded { return .done("forwarded: \(attempt.status ?? 0)") }
        let reason = attempt.status.map { "HTTP \($0)" } ?? attempt.error ?? "no answer"
        return .failed(JobFailure(reason, permanent: attempt.error == "too large"))
    }
}
