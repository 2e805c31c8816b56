import Domain
import Foundation

extension AppLookup {
    /// An app as its tenant reads it (`GET /s2s/v1/apps/{appId}`, `handoff admin app show`): settings, the forward
    /// URL, the live destinations; secrets only as `{"set":true}` (or null), never their values.
    public struct App: Sendable, Equatable, Encodable {
        public var state: AppState
        public var orgId: OrgID

        public init(state: AppState, orgId: OrgID) {
            self.state = state
            self.orgId = orgId
        }

        public var appId: String { state.facts.appId }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// `{"set":true}`: a write-only value is there.
        struct SetMarker: Encodable, Equatable { let set = true }

        /// One destination as answered.
        struct Destination: Encodable {
            var destinationId: String
            var scheme: String
            var url: String
            var isDefault: Bool
            var secret: SetMarker?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(destinationId, forKey: Key("destinationId"))
                try container.encode(scheme, forKey: Key("scheme"))
                try container.encode(url, forKey: Key("url"))
                try container.encode(isDefault, forKey: Key("isDefault"))
                try container.encode(secret, forKey: Key("secret"))
            }
        }

        /// `{"appId","projectId","platform","bundleId","appAppleId","publishableKey","forwardUrl", each secret,
        /// "ingest","destinations"}`, every key written (unset ones as null).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            let facts = state.facts
            try container.encode(facts.appId, forKey: Key("appId"))
            try container.encode(facts.projectId, forKey: Key("projectId"))
            try container.encode(facts.platform, forKey: Key("platform"))
            try container.encode(facts.bundleId, forKey: Key("bundleId"))
            try container.encode(facts.appAppleId, forKey: Key("appAppleId"))
            try container.encode(state.publishableKey, forKey: Key("publishableKey"))
            try container.encode(state.forwardDestination?.url, forKey: Key("forwardUrl"))
            for kind in AppSecretKind.allCases {
                try container.encode(facts.secrets[kind] == nil ? nil : SetMarker(), forKey: Key(kind.rawValue))
            }
            try container.encode(state.ingest, forKey: Key("ingest"))
            try container.encode(state.destinations.map {
                Destination(destinationId: $0.id.description, scheme: $0.scheme.rawValue, url: $0.url,
                            isDefault: $0.isDefault, secret: $0.hasSecret ? SetMarker() : nil)
            }, forKey: Key("destinations"))
        }
    }
}
