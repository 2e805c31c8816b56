import Domain
import EventStore
import Foundation
import Postgres

/// Records an app install once (`POST /v1/m/install`): `AppInstallRecorded` on the install's own stream, its journey
/// keys sealed for the install (`app-install:<hash>`). A re-sent install — even one racing the first — records
/// nothing and answers the tier stored first.
public struct RecordInstall: Sendable {
    private let context: IdentityContext

    init(_ context: IdentityContext) { self.context = context }

    /// What recording answered: the install's tier and whether this call recorded it.
    public struct Outcome: Sendable, Equatable {
        public var tier: InstallTier
        public var recorded: Bool
    }

    /// Records `install` for the app of `orgId`, unless that install is already recorded. `journey` is the install's
    /// journey keys in clear: they are sealed inside the transaction into `journeyKeys` (the install's `sources` must
    /// not carry them). An install whose key was destroyed (erased before it was recorded) keeps none: nothing new is
    /// sealed for an erased subject.
    public func run(_ install: AppInstallRecorded, journey: InstallJourney = InstallJourney(), orgId: OrgID,
                    metadata: EventMetadata) throws -> Outcome {
        guard case .success(let app) = AppID.parse(install.appId) else {
            throw InconsistentState("an install names a malformed app id")
        }
        return try context.log.transact(in: .org(orgId.uuid)) { transaction in
            let connection = transaction.connection
            if let stored = try connection.query("""
                SELECT tier FROM app_installs WHERE app_id = $1::uuid AND install_hash = $2
                """, [.text(install.appId), .text(install.installHash)]).rows.first {
                guard let tier = InstallTier(rawValue: try stored.string("tier")) else {
                    throw InconsistentState("a stored install tier does not read back")
                }
                return Outcome(tier: tier, recorded: false)
            }
            var sealed = install
            var keys = AppInstallRecorded.JourneyKeys()
            let subject = AppLeadStreams.installSubject(installHash: install.installHash)
            for (field, text) in journey.fields {
                guard let value = try context.subjectKeys.seal(text, field: field, org: orgId.uuid, subject: subject,
                                                               on: connection) else { break }
                keys.set(value, for: field)
            }
            sealed.journeyKeys = keys.isEmpty ? nil : keys
            // `.noStream`: a racing first recording makes this one retry, and the retry reads the racer's row.
            try transaction.append(
                org: orgId.uuid, stream: IngestStreams.install(app: app, installHash: install.installHash),
                expectedVersion: .noStream, events: [try NewEvent(sealed)], metadata: metadata)
            return Outcome(tier: install.tier, recorded: true)
        }
    }
}
