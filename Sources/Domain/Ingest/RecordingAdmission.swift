/// Whether a recording packet is stored (`POST /v1/m/r`, docs/recordings.md): a pure rule over the app's settings
/// and the packet's consent and screen.
public enum RecordingAdmission {
    /// What becomes of an admitted packet.
    public enum Outcome: Sendable, Equatable {
        /// Stored; screenshots kept as replay assets only when `keepsScreenshots`, else their bytes are dropped.
        case record(keepsScreenshots: Bool)
        /// Not stored, answered `off`: the SDK stops recording this session.
        case off
    }

    /// The packet's 2-character `cs`: analytics, then recordings; each `g`, `d`, `p` or `x`.
    public static func parseStates(_ text: String?) -> Result<String, IngestRefusal> {
        guard let text else { return .failure(.invalid("cs is required")) }
        guard text.count == 2, text.allSatisfy({ "gdpx".contains($0) }) else {
            return .failure(.invalid("cs must be 2 characters of g, d, p, x"))
        }
        return .success(text)
    }

    /// First match wins: the app paused or recording off → `off`; consent other than `gg` → `off`; a health app
    /// (`recording.health`) whose consent mode is not `opt_in` → `off`; a screen matching `recording.excludeScreens`
    /// → 422 `page_excluded`; else recorded, screenshots kept only while `recording.screenshots` is on and the app
    /// is not a health app.
    public static func decide(settings: IngestSettings, mode: IngestConsent.Mode, states: String, screen: String?)
        -> Result<Outcome, IngestRefusal>
    {
        let recording = settings.recording
        guard settings.enabled, recording.enabled, states == "gg" else { return .success(.off) }
        if recording.health, mode != .optIn { return .success(.off) }
        if let screen, recording.excludeScreens.map(ScreenGlob.init).contains(where: { $0.matches(screen) }) {
            return .failure(.pageExcluded)
        }
        return .success(.record(keepsScreenshots: recording.screenshots && !recording.health))
    }
}
