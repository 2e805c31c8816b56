import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Creates an app in a project (`POST /s2s/v1/apps`, `handoff admin app create`): `AppCreated` with its first store
/// token, `AppPublishableKeyIssued` with its publishable key, and `AppDestinationAdded` (the default `x3`
/// destination) when a forward URL is given; refuses 404 for a project that does not exist (in the caller's org)
/// (`AppCreation.decide`).
public struct CreateApp: Sendable {
    /// The new app and its store token (shown once; only its hash and sealed text are kept).
    public struct Created: Sendable {
        public var app: AppLookup.App
        public var storeToken: StoreToken
    }

    private let log: EventLog
    private let sealer: AppSealer

    private let addresses: ForwardAddresses

    init(log: EventLog, sealer: AppSealer, addresses: ForwardAddresses) {
        self.addresses = addresses
        self.log = log
        self.sealer = sealer
    }

    /// Records the app described by `draft` in `project` (of `org` when given; the admin CLI finds the org from the
    /// project).
    public func run(project: ProjectID, org: OrgID?, draft: AppDraft, metadata: EventMetadata) throws -> Created {
        if let url = draft.forwardUrl { try addresses.check(url, field: "forwardUrl") }
        let app = AppID(randomBytes: SecureRandom.bytes(16))
        let forward = DestinationID(randomBytes: SecureRandom.bytes(16))
        let publishableKey = PublishableKey(randomBytes: SecureRandom.bytes(PublishableKey.randomByteCount))
        let scope: OrgScope = org.map { .org($0.uuid) } ?? .orgOf(.project, .text(project.description))
        return try log.transact(in: scope) { transaction in
            let connection = transaction.connection
            let current = try ProjectLookup.project(project, org: org, on: connection, forUpdate: false)
            _ = try AppCreation.decide(projectExists: current != nil).get()
            guard let orgId = current?.orgId else { throw InconsistentState("a decided project has no org") }
            let secrets = try sealer.seal(draft.secrets, app: app, org: orgId, on: connection)
            let token = try sealer.newStoreToken(app: app, org: orgId, on: connection)
            let facts = AppFacts(appId: app, projectId: project, platform: draft.platform, bundleId: draft.bundleId,
                                 appAppleId: draft.appAppleId, secrets: secrets)
            var events = [try NewEvent(AppCreated(facts, storeTokenHash: token.hash, storeToken: token.sealed)),
                          try NewEvent(AppPublishableKeyIssued(appId: app, projectId: project, key: publishableKey))]
            var destinations: [AppState.Destination] = []
            if let url = draft.forwardUrl {
                events.append(try NewEvent(AppDestinationAdded(appId: app, destinationId: forward, scheme: .x3,
                                                               url: url.text, secret: nil, isDefault: true)))
                destinations.append(AppState.Destination(id: forward, scheme: .x3, url: url.text, isDefault: true))
            }
            let recorded = try transaction.append(org: orgId.uuid, stream: AppStreams.app(app),
                                                  expectedVersion: .noStream, events: events, metadata: metadata)
            // The AppConfig revision is the key issue's org_seq (the second event; a destination does not count).
            let state = AppState(facts: facts, storeTokenHash: token.hash, destinations: destinations,
                                 publishableKey: publishableKey.text,
                                 ingest: AppIngestState(rev: Int(recorded[1].orgSeq), settings: .defaults))
            return Created(app: AppLookup.App(state: state, orgId: orgId), storeToken: token.token)
        }
    }
}
