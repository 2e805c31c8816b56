/// An app as the deciders see it: its settings (secrets sealed), its live store token and its live destinations.
public struct AppState: Sendable, Equatable {
    /// One live forward destination.
    public struct Destination: Sendable, Equatable {
        public var id: DestinationID
        public var scheme: DestinationScheme
        public var url: String
        /// The app's forward URL.
        public var isDefault: Bool
        /// Whether it has a signing secret of its own.
        public var hasSecret: Bool

        public init(id: DestinationID, scheme: DestinationScheme, url: String, isDefault: Bool,
                    hasSecret: Bool = false) {
            self.id = id
            self.scheme = scheme
            self.url = url
            self.isDefault = isDefault
            self.hasSecret = hasSecret
        }
    }

    public var facts: AppFacts
    /// Hex SHA-256 of the live store token.
    public var storeTokenHash: String
    /// The destinations not removed, oldest first.
    public var destinations: [Destination]
    /// The live publishable key (`pk_3x_…`, public by design); nil for an app created before keys existed and never
    /// given one since.
    public var publishableKey: String?
    /// The ingest settings and their revision; nil when not read.
    public var ingest: AppIngestState?

    public init(facts: AppFacts, storeTokenHash: String, destinations: [Destination], publishableKey: String? = nil,
                ingest: AppIngestState? = nil) {
        self.facts = facts
        self.storeTokenHash = storeTokenHash
        self.destinations = destinations
        self.publishableKey = publishableKey
        self.ingest = ingest
    }

    /// The app's platform (`ios` when the stored text is not one, which the table's CHECK rules out).
    public var platform: DevicePlatform { DevicePlatform(rawValue: facts.platform) ?? .ios }

    /// The default `x3` destination: the forward URL.
    public var forwardDestination: Destination? { destinations.first(where: \.isDefault) }
}
