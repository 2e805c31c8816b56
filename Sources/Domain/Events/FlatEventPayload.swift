/// An event payload whose JSON is exactly the JSON of one `Facts` value (flattened, no wrapper key): for event types
/// that say different things with the same fields (`ProjectCreated` and `ProjectSettingsChanged`).
public protocol FlatEventPayload: EventPayload {
    /// The fields the event carries.
    associatedtype Facts: Codable & Sendable & Equatable
    var facts: Facts { get }
    init(_ facts: Facts)
}

extension FlatEventPayload {
    public init(from decoder: any Decoder) throws { self.init(try Facts(from: decoder)) }

    public func encode(to encoder: any Encoder) throws { try facts.encode(to: encoder) }
}
