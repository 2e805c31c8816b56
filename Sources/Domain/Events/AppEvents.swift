import Foundation

/// The stream names of app events; every one lives in the app's organization's log.
public enum AppStreams {
    /// An app's own stream: its creation, changes, store-token rotations and destinations.
    public static func app(_ id: AppID) -> String { "app-\(id)" }
    /// The stream of a buyer's App Store `appAccountToken` (one `AppAccountTokenMinted`, ever, per org and guid).
    public static func accountToken(_ guid: BuyerGuid) -> String { "app-account-token-\(guid)" }
}

/// An app and its complete settings: what `AppCreated` and `AppUpdated` carry.
///
/// Secrets are sealed for the app (`pd1.…`, subject `app:<appId>`, field = the secret's name) or null when unset.
/// Every key is written, unset ones as `null`, so readers always see the full shape.
public struct AppFacts: Codable, Sendable, Equatable {
    public var appId: String
    public var projectId: String
    /// `ios` or `android`; it never changes.
    public var platform: String
    /// The iOS bundle id or Android package name.
    public var bundleId: String
    /// The App Store's numeric app id, when given.
    public var appAppleId: Int64?
    /// The secrets that are set, sealed.
    public var secrets: [AppSecretKind: SealedValue]

    public init(appId: AppID, projectId: ProjectID, platform: DevicePlatform, bundleId: String, appAppleId: Int64?,
                secrets: [AppSecretKind: SealedValue]) {
        self.appId = appId.description
        self.projectId = projectId.description
        self.platform = platform.rawValue
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.secrets = secrets
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        appId = try container.decode(String.self, forKey: Key("appId"))
        projectId = try container.decode(String.self, forKey: Key("projectId"))
        platform = try container.decode(String.self, forKey: Key("platform"))
        bundleId = try container.decode(String.self, forKey: Key("bundleId"))
        appAppleId = try container.decodeIfPresent(Int64.self, forKey: Key("appAppleId"))
        var secrets: [AppSecretKind: SealedValue] = [:]
        for kind in AppSecretKind.allCases {
            secrets[kind] = try container.decodeIfPresent(SealedValue.self, forKey: Key(kind.rawValue))
        }
        self.secrets = secrets
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(appId, forKey: Key("appId"))
        try container.encode(projectId, forKey: Key("projectId"))
        try container.encode(platform, forKey: Key("platform"))
        try container.encode(bundleId, forKey: Key("bundleId"))
        try container.encode(appAppleId, forKey: Key("appAppleId"))
        for kind in AppSecretKind.allCases { try container.encode(secrets[kind], forKey: Key(kind.rawValue)) }
    }
}

/// An app was created in a project, with its first store token: `storeTokenHash` is the hex SHA-256 of the token,
/// `storeToken` the token sealed for the app (the forwarder signs with it). Its forward URL, if any, follows as an
/// `AppDestinationAdded` (the default `x3` destination) in the same append.
public struct AppCreated: EventPayload, Equatable {
    public static let eventType = "AppCreated"
    public static let schemaVersion = 1
    public var facts: AppFacts
    public var storeTokenHash: String
    public var storeToken: SealedValue

    public init(_ facts: AppFacts, storeTokenHash: String, storeToken: SealedValue) {
        self.facts = facts
        self.storeTokenHash = storeTokenHash
        self.storeToken = storeToken
    }

    private enum CodingKeys: String, CodingKey { case storeTokenHash, storeToken }

    public init(from decoder: any Decoder) throws {
        facts = try AppFacts(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storeTokenHash = try container.decode(String.self, forKey: .storeTokenHash)
        storeToken = try container.decode(SealedValue.self, forKey: .storeToken)
    }

    public func encode(to encoder: any Encoder) throws {
        try facts.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeTokenHash, forKey: .storeTokenHash)
        try container.encode(storeToken, forKey: .storeToken)
    }
}

/// An app's settings changed; the facts are the complete new state (not a diff), so folding is an overwrite. A
/// secret that did not change keeps its sealed text.
public struct AppUpdated: FlatEventPayload, Equatable {
    public static let eventType = "AppUpdated"
    public static let schemaVersion = 1
    public var facts: AppFacts
    public init(_ facts: AppFacts) { self.facts = facts }
}

/// An app's store token was replaced: the new one (`storeTokenHash`, sealed `storeToken`) works from the commit on,
/// the one hashed `retiredTokenHash` stops at once (its URLs answer 404). The retired token stays sealed in the log
/// and the projection, so forwards queued before the rotation still sign with it.
public struct AppStoreTokenRotated: EventPayload, Equatable {
    public static let eventType = "AppStoreTokenRotated"
    public static let schemaVersion = 1
    public var appId: String
    public var storeTokenHash: String
    public var storeToken: SealedValue
    public var retiredTokenHash: String

    public init(appId: AppID, storeTokenHash: String, storeToken: SealedValue, retiredTokenHash: String) {
        self.appId = appId.description
        self.storeTokenHash = storeTokenHash
        self.storeToken = storeToken
        self.retiredTokenHash = retiredTokenHash
    }
}

/// An app got a forward destination. `isDefault`: it is the app's forward URL (an `x3` destination; at most one live
/// default per app). `secret` is the destination's signing secret sealed for the app, or null (an `x3` destination
/// without one signs with the store token).
public struct AppDestinationAdded: EventPayload, Equatable {
    public static let eventType = "AppDestinationAdded"
    public static let schemaVersion = 1
    public var appId: String
    public var destinationId: String
    public var scheme: String
    public var url: String
    public var secret: SealedValue?
    public var isDefault: Bool

    public init(appId: AppID, destinationId: DestinationID, scheme: DestinationScheme, url: String,
                secret: SealedValue?, isDefault: Bool) {
        self.appId = appId.description
        self.destinationId = destinationId.description
        self.scheme = scheme.rawValue
        self.url = url
        self.secret = secret
        self.isDefault = isDefault
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appId, forKey: .appId)
        try container.encode(destinationId, forKey: .destinationId)
        try container.encode(scheme, forKey: .scheme)
        try container.encode(url, forKey: .url)
        try container.encode(secret, forKey: .secret)
        try container.encode(isDefault, forKey: .isDefault)
    }
}

/// A forward destination was removed: notifications arriving from the commit on are not forwarded to it (forwards
/// already queued find it removed).
public struct AppDestinationRemoved: EventPayload, Equatable {
    public static let eventType = "AppDestinationRemoved"
    public static let schemaVersion = 1
    public var appId: String
    public var destinationId: String

    public init(appId: AppID, destinationId: DestinationID) {
        self.appId = appId.description
        self.destinationId = destinationId.description
    }
}

/// The App Store `appAccountToken` of buyer `guid` of the organization was minted (random, once per org and guid):
/// the app passes it to StoreKit, and a transaction that carries it is this buyer's. `projectId` is the project the
/// app asked in.
public struct AppAccountTokenMinted: EventPayload, Equatable {
    public static let eventType = "AppAccountTokenMinted"
    public static let schemaVersion = 1
    public var guid: String
    public var projectId: String
    public var appAccountToken: String

    public init(guid: BuyerGuid, projectId: ProjectID, appAccountToken: UUID) {
        self.guid = guid.description
        self.projectId = projectId.description
        self.appAccountToken = CanonicalUUID.text(appAccountToken)
    }
}
