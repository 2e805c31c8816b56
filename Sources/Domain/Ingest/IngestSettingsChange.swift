/// Changes of an app's AppConfig settings by name (`handoff admin app ingest-settings --NAME VALUE`), each checked
/// and refused naming its flag.
public enum IngestSettingsChange {
    /// The names a change may carry, in the order they are applied.
    public static let names = ["enabled", "identify", "leads", "blocked-events", "exclude-screens",
                               "session-timeout-ms", "flush-interval-ms", "flush-events",
                               "recording", "recording-screenshots", "recording-health", "recording-exclude-screens",
                               "recording-sample-rate", "signup-is-lead"]

    /// `settings` with each of `changes` (name → text) applied; refuses the first bad one naming `--<name>`.
    public static func apply(_ changes: [String: String], to settings: IngestSettings)
        -> Result<IngestSettings, FieldRefusal>
    {
        var result = settings
        for name in names {
            guard let text = changes[name] else { continue }
            let field = "--" + name
            func toggle() -> Bool? { text == "on" ? true : text == "off" ? false : nil }
            func number(_ range: ClosedRange<Int>) -> Int? { Int(text).flatMap { range.contains($0) ? $0 : nil } }
            func list() -> [String]? {
                let items = text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false)
                    .map(String.init)
                guard items.count <= 100, items.allSatisfy({ (1...128).contains($0.utf8.count) && Self.printable($0) })
                else { return nil }
                return items
            }
            func refuse(_ rule: String) -> Result<IngestSettings, FieldRefusal> {
                .failure(FieldRefusal(field: field, code: .validationFailed, rule: rule))
            }
            switch name {
            case "recording", "recording-screenshots", "recording-health":
                guard let value = toggle() else { return refuse("be on or off") }
                if name == "recording" { result.recording.enabled = value }
                if name == "recording-screenshots" { result.recording.screenshots = value }
                if name == "recording-health" { result.recording.health = value }
            case "recording-exclude-screens":
                guard let value = list() else {
                    return refuse("be up to 100 comma-separated names of 1–128 printable characters")
                }
                result.recording.excludeScreens = value
            case "recording-sample-rate":
                guard let value = Double(text), value.isFinite, (0...1).contains(value) else {
                    return refuse("be a number from 0 to 1")
                }
                result.recording.sampleRate = value
            case "signup-is-lead":
                guard let value = toggle() else { return refuse("be on or off") }
                result.signupIsLead = value
            case "enabled", "identify", "leads":
                guard let value = toggle() else { return refuse("be on or off") }
                if name == "enabled" { result.enabled = value }
                if name == "identify" { result.identifyEnabled = value }
                if name == "leads" { result.leadsEnabled = value }
            case "blocked-events", "exclude-screens":
                guard let value = list() else {
                    return refuse("be up to 100 comma-separated names of 1–128 printable characters")
                }
                if name == "blocked-events" { result.blockedEvents = value } else { result.excludedScreens = value }
            case "session-timeout-ms":
                guard let value = number(60_000...86_400_000) else { return refuse("be 60000–86400000") }
                result.sessionTimeoutMs = value
            case "flush-interval-ms":
                guard let value = number(1000...3_600_000) else { return refuse("be 1000–3600000") }
                result.flushIntervalMs = value
            default:
                guard let value = number(1...1000) else { return refuse("be 1–1000") }
                result.flushEvents = value
            }
        }
        return .success(result)
    }

    private static func printable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0 != "," }
    }
}
