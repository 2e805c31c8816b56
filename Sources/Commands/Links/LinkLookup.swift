import Domain
import EventStore
import Foundation
import Postgres

/// Reads of go links (migration 0032): a project's links as `GET /s2s/v1/links` answers them.
public struct LinkLookup: Sendable {
    let log: EventLog

    init(log: EventLog) { self.log = log }

    /// A go link as its project sees it; encodes as the S2S answer (every key written, null when unset).
    public struct Link: Sendable, Equatable, Encodable {
        public var linkId: String
        public var projectId: String
        public var token: String
        public var code: String?
        public var iosAppId: String?
        public var androidAppId: String?
        public var fallbackUrl: String
        public var utm: LinkUTM
        public var appStoreProviderToken: String?
        public var appStoreCampaignToken: String?
        public var createdAt: String

        private enum CodingKeys: String, CodingKey {
            case linkId, projectId, token, code, iosAppId, androidAppId, fallbackUrl, utm, appStore, createdAt
        }

        private enum AppStoreKeys: String, CodingKey { case pt, ct }

        /// The link with its URL on `base` (`PUBLIC_BASE_URL`): `<base>/v1/go/<token>`.
        public func shared(base: String) -> SharedLink { SharedLink(link: self, url: "\(base)/v1/go/\(token)") }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(linkId, forKey: .linkId)
            try container.encode(projectId, forKey: .projectId)
            try container.encode(token, forKey: .token)
            try container.encode(code, forKey: .code)
            try container.encode(iosAppId, forKey: .iosAppId)
            try container.encode(androidAppId, forKey: .androidAppId)
            try container.encode(fallbackUrl, forKey: .fallbackUrl)
            try container.encode(utm, forKey: .utm)
            var store = container.nestedContainer(keyedBy: AppStoreKeys.self, forKey: .appStore)
            try store.encode(appStoreProviderToken, forKey: .pt)
            try store.encode(appStoreCampaignToken, forKey: .ct)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    /// A link as the S2S answers and the CLI show it: its stored members and `url`, the address to share.
    public struct SharedLink: Sendable, Encodable {
        public var link: Link
        public var url: String

        private enum CodingKeys: String, CodingKey { case url }

        public func encode(to encoder: any Encoder) throws {
            try link.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
        }
    }

    /// The links of `project` in `org` (nil: the admin CLI finds the org from the project), oldest first.
    public func links(project: ProjectID, org: OrgID?) throws -> [Link] {
        try log.read(in: Self.scope(project: project, org: org)) { connection in
            try Self.links(where: "l.project_id = $1::uuid", [.text(project.description)], on: connection)
        }
    }

    static func scope(project: ProjectID, org: OrgID?) -> OrgScope {
        org.map { .org($0.uuid) } ?? .orgOf(.project, .text(project.description))
    }

    static func links(where condition: String, _ parameters: [PostgresValue], on connection: Connection) throws
        -> [Link]
    {
        try connection.query("""
            SELECT l.link_id::text AS link_id, l.project_id::text AS project_id, l.token, l.code,
                l.ios_app_id::text AS ios_app_id, l.android_app_id::text AS android_app_id, l.fallback_url,
                l.utm::text AS utm, l.app_store_pt, l.app_store_ct,
                to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
            FROM go_links l WHERE \(condition) ORDER BY l.created_at, l.link_id
            """, parameters).rows.map { row in
            guard let utm = try? JSONDecoder().decode(LinkUTM.self, from: Data(try row.string("utm").utf8)) else {
                throw InconsistentState("a stored link's utm does not read back")
            }
            return Link(linkId: try row.string("link_id"), projectId: try row.string("project_id"),
                        token: try row.string("token"), code: row["code"], iosAppId: row["ios_app_id"],
                        androidAppId: row["android_app_id"], fallbackUrl: try row.string("fallback_url"), utm: utm,
                        appStoreProviderToken: row["app_store_pt"], appStoreCampaignToken: row["app_store_ct"],
                        createdAt: try row.string("created_at"))
        }
    }
}
