import Commands
import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport
@testable import Workers

/// The destinations of a forward test, by id, and the store tokens by their hash: a stand-in for the apps write
/// model's lookup, which answers whatever token hash it is asked for (current or rotated away).
final class TableTargets: ForwardTargets, @unchecked Sendable {
    struct Destination {
        var url: String
        var scheme: ForwardScheme
        var secret: String?
    }

    let destinations = Mutex<[String: Destination]>([:])
    let tokens = Mutex<[String: String]>([:])

    /// Registers `token` under its hex SHA-256; returns the hash.
    @discardableResult
    func addToken(_ token: String) -> String {
        let hash = Hex.encode(SHA256.hash(Array(token.utf8)))
        tokens.withLock { $0[hash] = token }
        return hash
    }

    func set(_ id: String, _ destination: Destination?) { destinations.withLock { $0[id] = destination } }

    func target(org: UUID, appId: String, destinationId: String, storeTokenHash: String,
                on transaction: EventTransaction) throws -> ForwardTarget? {
        guard let destination = destinations.withLock({ $0[destinationId] }),
              let token = tokens.withLock({ $0[storeTokenHash] }) else { return nil }
        return ForwardTarget(url: destination.url, scheme: destination.scheme,
                             secret: destination.secret.map { Array($0.utf8) }, signingToken: token)
    }
}

/// A migrated database, a Redis, a forward receiver on 127.0.0.2 (the only allow-listed address) and the
/// `store-forward` kind over them, with a clock the test moves.
final class ForwardFixture: @unchecked Sendable {
    static let token = "tok_AbCdEfGhIjKlMnOpQrStUvWxYz0123"
    static let attribloomSecret = "ea-secret-for-tests"
    /// A compact JWS as an App Store notification carries it (not verified here: intake did that).
    static let jws = "eyJhbGciOiJFUzI1NiIsIng1YyI6W119.eyJub3RpZmljYXRpb25UeXBlIjoiVEVTVCJ9.c2lnbmF0dXJlLWJ5dGVz"

    let jobs: JobFixture
    let receiver: ForwardReceiver
    let targets = TableTargets()
    let clock = ManualClock()
    let registry: JobRegistry
    let org = UUID()
    let appId = UUID()

    init(pinnedAddresses: [String] = []) throws {
        jobs = try JobFixture()
        receiver = try ForwardReceiver(host: "127.0.0.2", x3Token: Self.token,
                                       attribloomSecret: Self.attribloomSecret)
        let forwarder = Forwarder(settings: Forwarder.Settings(
            allowed: try NetworkAllowList.parse("127.0.0.2/32").get(), timeout: 5, pinnedAddresses: pinnedAddresses))
        registry = JobRegistry([StoreForwardJob.kind(settings: StoreForwardSettings(forwarder: forwarder,
                                                                                    targets: targets))])
    }

    /// Appends a `StoreNotificationReceived` of this fixture's app with `body` (exact bytes) and dispatches its jobs.
    @discardableResult
    func receive(_ body: [UInt8], store: NotificationStore = .apple, destinations: [String], verified: Bool = true,
                 tokenHash: String? = nil) throws -> RecordedEvent {
        let hash = tokenHash ?? targets.addToken(Self.token)
        let notification = StoreNotificationReceived(
            appId: appId.uuidString.lowercased(), projectId: UUID().uuidString.lowercased(), store: store.rawValue,
            notificationId: UUID().uuidString, notificationType: "TEST", subtype: nil, environment: "Sandbox",
            verified: verified, storeTokenHash: hash, body: Data(body).base64EncodedString(),
            destinations: destinations, guid: nil)
        let events = try jobs.store.append(
            org: org, stream: StoreStreams.notifications(appId: appId), expectedVersion: .any,
            events: [try NewEvent(notification)], metadata: EventMetadata(actor: .system("test")))
        let now = clock.now
        try jobs.pool.transaction { try JobDispatcher.dispatch(events, registry: registry, now: now, on: $0) }
        return events[0]
    }

    func relay() throws -> Int {
        try JobRelay(pool: jobs.pool, redis: jobs.redisPool, registry: registry, clock: clock.function).relayDue()
    }

    func consumer() -> JobConsumer {
        JobConsumer(queue: StoreForwardJob.queue, name: "test-\(UUID().uuidString)", store: jobs.store,
                    redis: jobs.redisPool, registry: registry, visibilityTimeout: 60, clock: clock.function,
                    blockMilliseconds: 100)
    }

    /// Relays what is due and runs it with one consumer; returns how many entries it handled.
    @discardableResult
    func runDue() throws -> Int {
        guard try relay() > 0 else { return 0 }
        let consumer = consumer()
        var handled = 0
        for _ in 0..<5 { handled += try consumer.step() }
        return handled
    }

    /// The `store-forward` jobs, oldest first (the owner's view).
    func forwardJobs() throws -> [Job] {
        try JobStore.list(state: nil, org: org, limit: 100, on: jobs.ownerConnection()).reversed()
    }

    /// The delivery events of the org, oldest first: (type, facts).
    func deliveryEvents() throws -> [(String, ForwardAttemptFacts)] {
        try EventReader.readHistory(org: org, on: jobs.ownerConnection()).compactMap { event in
            switch event.eventType {
            case NotificationForwarded.eventType:
                return (event.eventType, try event.decode(NotificationForwarded.self).facts)
            case ForwardFailed.eventType:
                return (event.eventType, try event.decode(ForwardFailed.self).facts)
            default:
                return nil
            }
        }
    }

    /// `sha256=<hex HMAC-SHA256(message, key)>`.
    static func signature(key: String, _ message: [UInt8]) -> String {
        "sha256=" + Hex.encode(HMAC.sha256(key: Array(key.utf8), message: message))
    }
}
