import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Creates a go link in a project (`POST /s2s/v1/links`, `handoff admin link create`): `GoLinkCreated`
/// (`GoLinkCreation.decide`), with a fresh global token.
public struct CreateGoLink: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Records a link made of `draft` in `project` (of `org` when given; the admin CLI finds the org from the
    /// project); returns it as read back.
    public func run(project: ProjectID, org: OrgID?, draft: GoLinkDraft, metadata: EventMetadata) throws
        -> LinkLookup.Link
    {
        let link = GoLinkID(randomBytes: SecureRandom.bytes(16))
        let token = LinkToken(randomBytes: SecureRandom.bytes(LinkToken.randomByteCount))
        return try log.transact(in: LinkLookup.scope(project: project, org: org)) { transaction in
            let connection = transaction.connection
            let current = try ProjectLookup.project(project, org: org, on: connection, forUpdate: false)
            let facts = GoLinkCreation.Facts(
                projectExists: current != nil,
                iosAppPlatform: try draft.iosAppId.flatMap { try platform(of: $0, in: project, on: connection) },
                androidAppPlatform: try draft.androidAppId.flatMap {
                    try platform(of: $0, in: project, on: connection)
                },
                codeTaken: try draft.code.map { code in
                    try !connection.query("SELECT 1 FROM go_links WHERE code = $1 LIMIT 1", [.text(code)]).rows.isEmpty
                } ?? false)
            try GoLinkCreation.decide(draft, facts).get()
            guard let orgId = current?.orgId else { throw InconsistentState("a decided project has no org") }
            try transaction.append(
                org: orgId.uuid, stream: LinkStreams.link(link), expectedVersion: .noStream,
                events: [try NewEvent(GoLinkCreated(linkId: link, projectId: project, token: token, draft: draft))],
                metadata: metadata)
            guard let created = try LinkLookup.links(where: "l.link_id = $1::uuid", [.text(link.description)],
                                                     on: connection).first
            else { throw InconsistentState("a created link does not read back") }
            return created
        }
    }

    /// The platform of `app` when it is an app of `project` (visible under the transaction's org scope).
    private func platform(of app: AppID, in project: ProjectID, on connection: Connection) throws -> DevicePlatform? {
        try connection.query("SELECT platform FROM apps WHERE app_id = $1::uuid AND project_id = $2::uuid",
                             [.text(app.description), .text(project.description)]).rows.first
            .flatMap { $0["platform"] }.flatMap(DevicePlatform.init(rawValue:))
    }
}
