/// Who and what caused an event; stored as the `metadata` column of every event and hashed with it.
///
/// JSON form (keys as stored):
/// `{"actor":{"id":…,"kind":…},"causation_id":…,"correlation_id":…,"request_id":…}`; absent ids are `null`.
public struct EventMetadata: Sendable, Equatable {
    /// The principal that caused the event.
    public var actor: Actor
    /// The id of the HTTP request (or job run) that appended the event.
    public var requestId: String?
    /// Groups every event of one business flow (e.g. one payment's whole handoff); often the first request id.
    public var correlationId: String?
    /// The event id (or command id) that directly caused this event.
    public var causationId: String?

    /// Creates metadata.
    public init(actor: Actor, requestId: String? = nil, correlationId: String? = nil, causationId: String? = nil) {
        self.actor = actor
        self.requestId = requestId
        self.correlationId = correlationId
        self.causationId = causationId
    }

    /// The JSON stored in `metadata`.
    public var json: EventJSON {
        func optional(_ value: String?) -> EventJSON { value.map(EventJSON.string) ?? .null }
        return .object([
            "actor": .object(["kind": .string(actor.kind.rawValue), "id": .string(actor.id)]),
            "request_id": optional(requestId),
            "correlation_id": optional(correlationId),
            "causation_id": optional(causationId),
        ])
    }

    /// Reads metadata back from its stored JSON; nil when it does not have this shape.
    public init?(json: EventJSON) {
        guard let kindText = json["actor"]?["kind"]?.stringValue, let kind = Actor.Kind(rawValue: kindText),
              let id = json["actor"]?["id"]?.stringValue else {
            return nil
        }
        self.init(actor: Actor(kind: kind, id: id), requestId: json["request_id"]?.stringValue,
                  correlationId: json["correlation_id"]?.stringValue, causationId: json["causation_id"]?.stringValue)
    }
}

/// The principal behind an event: a secret key (by its visible prefix), an operator, the system, or a worker.
public struct Actor: Sendable, Equatable {
    /// The kind of principal; raw values are what `metadata.actor.kind` stores.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A server-to-server secret key; `id` is its visible prefix (never the secret).
        case key
        /// An operator using `handoff admin`; `id` names them.
        case admin
        /// The service itself (migrations, replays, public device endpoints); `id` names the component.
        case system
        /// A background worker; `id` names the worker (relay, mail, forward …).
        case worker
    }

    public var kind: Kind
    public var id: String

    public init(kind: Kind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// A secret key, identified by its visible prefix.
    public static func key(prefix: String) -> Actor { Actor(kind: .key, id: prefix) }
    /// An operator.
    public static func admin(_ id: String) -> Actor { Actor(kind: .admin, id: id) }
    /// A part of the service.
    public static func system(_ id: String) -> Actor { Actor(kind: .system, id: id) }
    /// A worker.
    public static func worker(_ id: String) -> Actor { Actor(kind: .worker, id: id) }
}
