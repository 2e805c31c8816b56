import Domain
import EventStore
import Foundation
import Postgres

/// Names (or clears) where an organization's new signed chain heads are also delivered (`handoff admin org
/// set-auditor-url`): `AuditorURLSet` in the org's log, folded into `org_auditors` by `AuditorProjection`.
public struct SetAuditorURL: Sendable {
    private let log: EventLog
    private let addresses: ForwardAddresses

    /// `forwardAddresses` holds `FORWARD_ALLOWED_NETWORKS`: a literal host must pass the forward address rule.
    public init(log: EventLog, forwardAddresses: ForwardAddresses = ForwardAddresses()) {
        self.log = log
        self.addresses = forwardAddresses
    }

    /// Sets `org`'s auditor URL to `url` (nil clears it); returns whether an event was recorded (false: it was set
    /// so already). Refuses 404 for an unknown org and 400 `VALIDATION_FORWARD_URL_ADDRESS` about `field` for a
    /// host the forward rules refuse.
    @discardableResult
    public func run(org: OrgID, url: AppForwardURL?, field: String = "url", metadata: EventMetadata) throws -> Bool {
        if let url { try addresses.check(url, field: field) }
        return try log.transact(in: .org(org.uuid)) { transaction in
            let connection = transaction.connection
            let exists = try !connection.query(
                "SELECT 1 FROM organizations WHERE org_id = $1::uuid", [.text(org.description)]).rows.isEmpty
            let current = try AuditorLookup.url(org: org.uuid, on: connection)
            guard let event = try AuditorURLSetting.decide(organizationExists: exists, current: current,
                                                           requested: url).get() else { return false }
            try transaction.append(org: org.uuid, stream: AuditStreams.auditor, expectedVersion: .any,
                                   events: [try NewEvent(event)], metadata: metadata)
            return true
        }
    }
}
