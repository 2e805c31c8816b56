extension IngestSettings {
    /// A member name of the AppConfig shape.
    public struct WireKey: CodingKey, Sendable {
        public var stringValue: String
        public var intValue: Int? { nil }
        public init(_ name: String) { stringValue = name }
        public init?(stringValue: String) { self.stringValue = stringValue }
        public init?(intValue: Int) { nil }
    }

    private struct Flush: Encodable { var intervalMs: Int, events: Int }
    private struct Session: Encodable { var timeoutMs: Int }
    private struct Events: Encodable { var blocked: [String] }
    private struct Screens: Encodable { var exclude: [String] }
    private struct Switch: Encodable { var enabled: Bool }
    private struct Links: Encodable { var hosts: [String], pathPrefix: String }

    /// Writes the settings' members of the AppConfig shape (`enabled, flush, session, events, screens, identify,
    /// leads, recording, skan, links, attestation`), every one of them: what an SDK reads, and what
    /// `PATCH /s2s/v1/apps/{appId}` takes in its `ingest` member.
    public func encodeWireMembers(into container: inout KeyedEncodingContainer<WireKey>) throws {
        try container.encode(enabled, forKey: WireKey("enabled"))
        try container.encode(Flush(intervalMs: flushIntervalMs, events: flushEvents), forKey: WireKey("flush"))
        try container.encode(Session(timeoutMs: sessionTimeoutMs), forKey: WireKey("session"))
        try container.encode(Events(blocked: blockedEvents), forKey: WireKey("events"))
        try container.encode(Screens(exclude: excludedScreens), forKey: WireKey("screens"))
        try container.encode(Switch(enabled: identifyEnabled), forKey: WireKey("identify"))
        try container.encode(Switch(enabled: leadsEnabled), forKey: WireKey("leads"))
        try container.encode(recording.wire, forKey: WireKey("recording"))
        try container.encode(skan, forKey: WireKey("skan"))
        try container.encode(Links(hosts: linkHosts, pathPrefix: linkPathPrefix), forKey: WireKey("links"))
        try container.encode(attestation, forKey: WireKey("attestation"))
    }

    /// The `ingest` member's paths (`flush.intervalMs`, `recording.maxFps`, …) and the change name each sets
    /// (`IngestSettingsChange.names`): the wire shape of the settings, member by member.
    public static let wirePaths: [(path: [String], name: String)] = [
        (["enabled"], "enabled"), (["flush", "intervalMs"], "flush-interval-ms"), (["flush", "events"], "flush-events"),
        (["session", "timeoutMs"], "session-timeout-ms"), (["events", "blocked"], "blocked-events"),
        (["screens", "exclude"], "exclude-screens"), (["identify", "enabled"], "identify"),
        (["leads", "enabled"], "leads"), (["signupIsLead"], "signup-is-lead"),
        (["recording", "enabled"], "recording"), (["recording", "sampleRate"], "recording-sample-rate"),
        (["recording", "excludeScreens"], "recording-exclude-screens"),
        (["recording", "maskText"], "recording-mask-text"), (["recording", "maskImages"], "recording-mask-images"),
        (["recording", "unmaskAnchors"], "recording-unmask-anchors"),
        (["recording", "maskAnchors"], "recording-mask-anchors"),
        (["recording", "screenshots"], "recording-screenshots"), (["recording", "maxFps"], "recording-max-fps"),
        (["recording", "wifiOnly"], "recording-wifi-only"), (["recording", "health"], "recording-health"),
        (["skan"], "skan"), (["links", "hosts"], "link-hosts"), (["links", "pathPrefix"], "link-path-prefix"),
        (["attestation"], "attestation"),
    ]
}
