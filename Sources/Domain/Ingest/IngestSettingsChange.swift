/// Changes of an app's AppConfig settings by name (`handoff admin app ingest-settings --NAME VALUE`, and the `ingest`
/// member of `PATCH /s2s/v1/apps/{appId}`), each checked and refused naming its field.
public enum IngestSettingsChange {
    /// A value as the caller gave it: the admin flags give text (`on`/`off`, digits, a comma-separated list), a JSON
    /// body gives typed values. Both are checked by the same rules.
    public enum Value: Sendable, Equatable {
        case text(String)
        case bool(Bool)
        case number(Double)
        case list([String])
    }

    /// The names a change may carry, in the order they are applied.
    public static let names = ["enabled", "identify", "leads", "blocked-events", "exclude-screens",
                               "session-timeout-ms", "flush-interval-ms", "flush-events",
                               "recording", "recording-screenshots", "recording-health", "recording-exclude-screens",
                               "recording-sample-rate", "signup-is-lead",
                               "recording-mask-text", "recording-mask-images", "recording-wifi-only",
                               "recording-unmask-anchors", "recording-mask-anchors", "recording-max-fps",
                               "skan", "attestation", "link-hosts", "link-path-prefix"]

    /// The most items a list setting may have, and the most characters (Unicode scalars) of one item.
    public static let maxListItems = 100
    public static let maxItemLength = 128
    /// The whole rule of a list item (no control character, no comma), as a regular expression.
    public static let itemPattern = "^[^\\x00-\\x1F\\x7F,]+$"
    /// The whole rule of a deep-link host (at most 253 characters): lowercase DNS labels.
    public static let hostPattern = "^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
        + "(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$"
    /// The whole rule of the deep links' path prefix: `/` then unreserved characters and `/`, at most 256.
    public static let pathPrefixPattern = "^/[A-Za-z0-9._~/-]{0,255}$"
    /// The frame rate range of recordings.
    public static let maxFpsRange = 1...30

    /// `settings` with each of `changes` (name → text) applied; refuses the first bad one naming `--<name>`.
    public static func apply(_ changes: [String: String], to settings: IngestSettings)
        -> Result<IngestSettings, FieldRefusal>
    {
        apply(changes.mapValues { Value.text($0) }, to: settings, field: { "--" + $0 })
    }

    /// `settings` with each of `changes` (name → value) applied; refuses the first bad one naming `field(name)`.
    public static func apply(_ changes: [String: Value], to settings: IngestSettings, field: (String) -> String)
        -> Result<IngestSettings, FieldRefusal>
    {
        var result = settings
        for name in names {
            guard let value = changes[name] else { continue }
            if let rule = apply(name, value, to: &result) {
                return .failure(FieldRefusal(field: field(name), code: .validationFailed, rule: rule))
            }
        }
        return .success(result)
    }

    /// Applies one change; the rule it broke, or nil.
    private static func apply(_ name: String, _ value: Value, to result: inout IngestSettings) -> String? {
        let listRule = "be up to \(maxListItems) names of 1–\(maxItemLength) characters without control characters "
            + "or commas"
        switch name {
        case "enabled", "identify", "leads", "signup-is-lead", "recording", "recording-screenshots",
             "recording-health", "recording-mask-text", "recording-mask-images", "recording-wifi-only", "skan",
             "attestation":
            guard let on = toggle(value) else { return "be on or off" }
            setToggle(name, on, in: &result)
        case "blocked-events", "exclude-screens", "recording-exclude-screens", "recording-unmask-anchors",
             "recording-mask-anchors":
            guard let items = list(value), items.allSatisfy(isListItem) else { return listRule }
            setList(name, items, in: &result)
        case "link-hosts":
            guard let items = list(value), items.allSatisfy({ matches($0, hostPattern: true) }) else {
                return "be up to \(maxListItems) lowercase host names"
            }
            result.linkHosts = items
        case "link-path-prefix":
            guard case .text(let text) = value, matches(text, hostPattern: false) else {
                return "be / followed by up to 255 letters, digits, or . _ ~ / -"
            }
            result.linkPathPrefix = text
        case "recording-sample-rate":
            guard let number = number(value), number.isFinite, (0...1).contains(number) else {
                return "be a number from 0 to 1"
            }
            // Kept in millionths (`IngestSettings.Recording.perMillion`): a finer share means nothing for sessions.
            result.recording.sampleRate = Double(IngestSettings.Recording.perMillion(number)) / 1_000_000
        case "recording-max-fps":
            guard let whole = whole(value, maxFpsRange) else { return "be \(maxFpsRange.lowerBound)–30" }
            result.recording.maxFps = whole
        case "session-timeout-ms":
            guard let whole = whole(value, 60_000...86_400_000) else { return "be 60000–86400000" }
            result.sessionTimeoutMs = whole
        case "flush-interval-ms":
            guard let whole = whole(value, 1000...3_600_000) else { return "be 1000–3600000" }
            result.flushIntervalMs = whole
        default:
            guard let whole = whole(value, 1...1000) else { return "be 1–1000" }
            result.flushEvents = whole
        }
        return nil
    }

    private static func setToggle(_ name: String, _ on: Bool, in result: inout IngestSettings) {
        switch name {
        case "enabled": result.enabled = on
        case "identify": result.identifyEnabled = on
        case "leads": result.leadsEnabled = on
        case "signup-is-lead": result.signupIsLead = on
        case "recording": result.recording.enabled = on
        case "recording-screenshots": result.recording.screenshots = on
        case "recording-health": result.recording.health = on
        case "recording-mask-text": result.recording.maskText = on
        case "recording-mask-images": result.recording.maskImages = on
        case "recording-wifi-only": result.recording.wifiOnly = on
        case "skan": result.skan = on
        default: result.attestation = on
        }
    }

    private static func setList(_ name: String, _ items: [String], in result: inout IngestSettings) {
        switch name {
        case "blocked-events": result.blockedEvents = items
        case "exclude-screens": result.excludedScreens = items
        case "recording-exclude-screens": result.recording.excludeScreens = items
        case "recording-unmask-anchors": result.recording.unmaskAnchors = items
        default: result.recording.maskAnchors = items
        }
    }

    private static func toggle(_ value: Value) -> Bool? {
        switch value {
        case .bool(let on): on
        case .text("on"): true
        case .text("off"): false
        default: nil
        }
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .number(let number): number
        case .text(let text): Double(text)
        default: nil
        }
    }

    private static func whole(_ value: Value, _ range: ClosedRange<Int>) -> Int? {
        let number: Int?
        switch value {
        case .number(let double): number = double.rounded() == double && abs(double) < 1e12 ? Int(double) : nil
        case .text(let text): number = Int(text)
        default: number = nil
        }
        return number.flatMap { range.contains($0) ? $0 : nil }
    }

    /// A list: given as a list, or as comma-separated text (empty text is the empty list).
    private static func list(_ value: Value) -> [String]? {
        let items: [String]
        switch value {
        case .list(let given): items = given
        case .text(let text):
            items = text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        default: return nil
        }
        return items.count <= maxListItems ? items : nil
    }

    private static func isListItem(_ item: String) -> Bool {
        (1...maxItemLength).contains(item.unicodeScalars.count)
            && item.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0 != "," }
    }

    /// Whether `text` is a host name (`hostPattern`) or a path prefix (`pathPrefixPattern`), checked by hand
    /// (Domain has no regular expressions).
    private static func matches(_ text: String, hostPattern: Bool) -> Bool {
        let bytes = Array(text.utf8)
        if !hostPattern {
            let allowed = { (byte: UInt8) in ASCII.isUnreserved(byte) || byte == UInt8(ascii: "/") }
            return bytes.first == UInt8(ascii: "/") && bytes.count <= 256 && bytes.allSatisfy(allowed)
        }
        guard (1...253).contains(bytes.count) else { return false }
        return bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
            let inner = { (byte: UInt8) in ASCII.isDigit(byte) || (0x61...0x7A).contains(byte) }
            guard (1...63).contains(label.count), let first = label.first, let last = label.last,
                  inner(first), inner(last) else { return false }
            return label.allSatisfy { inner($0) || $0 == UInt8(ascii: "-") }
        }
    }
}
