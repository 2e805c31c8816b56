import Domain
import Foundation

/// The `ingest` member of `PATCH /s2s/v1/apps/{appId}`: the AppConfig settings in their wire shape
/// (`flush{intervalMs,events}`, `recording{…}`, …, plus `signupIsLead`), any subset of them. Types are checked here
/// (a refusal names the path, `ingest.flush.intervalMs`); values by `IngestSettingsChange`, the rules the admin CLI
/// uses.
struct IngestSettingsBody {
    /// Change name → value, for `ChangeIngestSettings`.
    var changes: [String: IngestSettingsChange.Value] = [:]

    /// The change names that take a whole number, a fraction, a list and a text; the rest are booleans.
    private static let wholes: Set = ["flush-interval-ms", "flush-events", "session-timeout-ms", "recording-max-fps"]
    private static let lists: Set = ["blocked-events", "exclude-screens", "recording-exclude-screens",
                                     "recording-unmask-anchors", "recording-mask-anchors", "link-hosts"]

    /// The path of a change name as a refusal names it (`ingest.flush.intervalMs`).
    static let fieldNames: [String: String] = Dictionary(uniqueKeysWithValues: IngestSettings.wirePaths.map {
        ($0.name, "ingest." + $0.path.joined(separator: "."))
    })

    init(from container: KeyedDecodingContainer<JSONField>) throws {
        let paths = IngestSettings.wirePaths
        try JSONBody.refuseUnknownFields(in: container, allowed: Set(paths.map { $0.path[0] }),
                                         what: "an ingest setting")
        for (path, name) in paths where path.count == 1 {
            let key = JSONField(path[0])
            guard container.contains(key) else { continue }
            changes[name] = try Self.value(name, key: key, in: container)
        }
        let groups = Dictionary(grouping: paths.filter { $0.path.count == 2 }, by: { $0.path[0] })
        for (group, members) in groups.sorted(by: { $0.key < $1.key }) {
            let key = JSONField(group)
            guard container.contains(key) else { continue }
            let nested = try container.nestedContainer(keyedBy: JSONField.self, forKey: key)
            try JSONBody.refuseUnknownFields(in: nested, allowed: Set(members.map { $0.path[1] }),
                                             what: "a member of ingest.\(group)")
            for (path, name) in members {
                let member = JSONField(path[1])
                guard nested.contains(member) else { continue }
                changes[name] = try Self.value(name, key: member, in: nested)
            }
        }
        if case .failure(let refusal) = IngestSettingsChange.apply(changes, to: .defaults, field: Self.field) {
            throw APIError(refusal)
        }
    }

    /// The refusal name of change `name`.
    @Sendable static func field(_ name: String) -> String { fieldNames[name] ?? "ingest" }

    private static func value(_ name: String, key: JSONField, in container: KeyedDecodingContainer<JSONField>) throws
        -> IngestSettingsChange.Value
    {
        if wholes.contains(name) { return .number(Double(try container.decode(Int.self, forKey: key))) }
        if name == "recording-sample-rate" { return .number(try container.decode(Double.self, forKey: key)) }
        if lists.contains(name) { return .list(try container.decode([String].self, forKey: key)) }
        if name == "link-path-prefix" { return .text(try container.decode(String.self, forKey: key)) }
        return .bool(try container.decode(Bool.self, forKey: key))
    }
}
