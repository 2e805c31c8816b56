import Domain

/// The app's ingest settings in the contract (`ingest` of the app answers and of `PATCH /s2s/v1/apps/{appId}`): the
/// AppConfig shape plus `signupIsLead`, from `IngestSettings.wirePaths` and the rules of `IngestSettingsChange`.
enum IngestSettingsSchemas {
    /// The settings as written in an app answer: every member, with `rev`.
    static let answer = JSONSchema.object([.required("rev", .integer(minimum: 1))] + properties(required: true))
        .with("title", "AppIngestSettings")
        .described("the AppConfig settings (GET /v1/m/config/{pk}) and their revision; signupIsLead is not sent to "
            + "SDKs")

    /// The settings a change may carry: any subset, each checked as the server checks it.
    static let change = JSONSchema.object(properties(required: false))
        .described("AppConfig settings to change (an absent one is kept); rev grows")

    /// The members of the wire shape, grouped as `IngestSettings.wirePaths` nests them.
    private static func properties(required: Bool) -> [JSONSchema.Property] {
        let member = { (name: String, schema: JSONSchema) -> JSONSchema.Property in
            required ? .required(name, schema) : .optional(name, schema)
        }
        var top: [JSONSchema.Property] = []
        var groups: [(String, [JSONSchema.Property])] = []
        for (path, name) in IngestSettings.wirePaths {
            let schema = value(name, checked: !required)
            if path.count == 1 {
                top.append(member(path[0], schema))
            } else if let index = groups.firstIndex(where: { $0.0 == path[0] }) {
                groups[index].1.append(member(path[1], schema))
            } else {
                groups.append((path[0], [member(path[1], schema)]))
            }
        }
        return top + groups.map { member($0.0, .object($0.1)) }
    }

    /// The schema of change `name`'s value; `checked` states the server's rules (a body), else only the type.
    private static func value(_ name: String, checked: Bool) -> JSONSchema {
        let item = JSONSchema.string(pattern: IngestSettingsChange.itemPattern,
                                     lengths: 1...IngestSettingsChange.maxItemLength)
        func list(_ items: JSONSchema) -> JSONSchema {
            checked ? JSONSchema.array(items).with("maxItems", .integer(IngestSettingsChange.maxListItems))
                : .array(.string())
        }
        func whole(_ range: ClosedRange<Int>) -> JSONSchema {
            checked ? .integer(minimum: range.lowerBound, maximum: range.upperBound) : .integer(minimum: 0)
        }
        switch name {
        case "blocked-events", "exclude-screens", "recording-exclude-screens", "recording-unmask-anchors",
             "recording-mask-anchors":
            return list(item)
        case "link-hosts":
            return list(.string(pattern: IngestSettingsChange.hostPattern, lengths: 1...253))
        case "link-path-prefix":
            return checked ? .string(pattern: IngestSettingsChange.pathPrefixPattern, lengths: 1...256) : .string()
        case "recording-sample-rate":
            let number = JSONSchema([.init("type", "number")])
            return checked ? number.with("minimum", .integer(0)).with("maximum", .integer(1)) : number
        case "recording-max-fps": return whole(IngestSettingsChange.maxFpsRange)
        case "session-timeout-ms": return whole(60_000...86_400_000)
        case "flush-interval-ms": return whole(1000...3_600_000)
        case "flush-events": return whole(1...1000)
        default: return .boolean
        }
    }
}
