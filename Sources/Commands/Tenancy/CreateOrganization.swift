import Crypto
import Domain
import EventStore
import Foundation

/// Creates an organization (`handoff admin org create`): `OrganizationCreated` in the new org's own log.
public struct CreateOrganization: Sendable {
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Records the organization named `name` (`OrganizationCreation.decide` checks it) and returns its id.
    public func run(name: String, metadata: EventMetadata) throws -> OrgID {
        let name = try OrganizationCreation.decide(name: name).get()
        let org = OrgID(randomBytes: SecureRandom.bytes(16))
        try log.append(org: org.uuid, stream: TenantStreams.organization, expectedVersion: .noStream,
                       events: [NewEvent(OrganizationCreated(orgId: org, name: name))], metadata: metadata)
        return org
    }
}
