/// How recording settings are stored (in `AppIngestSettingsChanged` and `app_ingest_configs`): every member under its
/// own name, and the sample rate as `sampleRate` when it is 0 or 1 — the bytes every setting had before fractions
/// were taken — else as `sampleRatePerMillion`, a whole number: the event log's canonical JSON holds no fractions
/// (`EventJSON`). Reading takes either. The AppConfig shape (`IngestSettings+Wire`) always sends `sampleRate`.
extension IngestSettings.Recording {
    private enum CodingKeys: String, CodingKey {
        case enabled, sampleRate, sampleRatePerMillion, excludeScreens, maskText, maskImages, unmaskAnchors,
             maskAnchors, screenshots, maxFps, wifiOnly, health
    }

    /// The sample rate in millionths, the precision it is kept in.
    public static func perMillion(_ rate: Double) -> Int { Int((rate * 1_000_000).rounded()) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let sampleRate: Double
        if let perMillion = try container.decodeIfPresent(Int.self, forKey: .sampleRatePerMillion) {
            sampleRate = Double(perMillion) / 1_000_000
        } else {
            sampleRate = try container.decode(Double.self, forKey: .sampleRate)
        }
        self.init(
            enabled: try container.decode(Bool.self, forKey: .enabled), sampleRate: sampleRate,
            excludeScreens: try container.decode([String].self, forKey: .excludeScreens),
            maskText: try container.decode(Bool.self, forKey: .maskText),
            maskImages: try container.decode(Bool.self, forKey: .maskImages),
            unmaskAnchors: try container.decode([String].self, forKey: .unmaskAnchors),
            maskAnchors: try container.decode([String].self, forKey: .maskAnchors),
            screenshots: try container.decode(Bool.self, forKey: .screenshots),
            maxFps: try container.decode(Int.self, forKey: .maxFps),
            wifiOnly: try container.decode(Bool.self, forKey: .wifiOnly),
            health: try container.decode(Bool.self, forKey: .health))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enabled, forKey: .enabled)
        if sampleRate == 0 || sampleRate == 1 {
            try container.encode(Int(sampleRate), forKey: .sampleRate)
        } else {
            try container.encode(Self.perMillion(sampleRate), forKey: .sampleRatePerMillion)
        }
        try container.encode(excludeScreens, forKey: .excludeScreens)
        try container.encode(maskText, forKey: .maskText)
        try container.encode(maskImages, forKey: .maskImages)
        try container.encode(unmaskAnchors, forKey: .unmaskAnchors)
        try container.encode(maskAnchors, forKey: .maskAnchors)
        try container.encode(screenshots, forKey: .screenshots)
        try container.encode(maxFps, forKey: .maxFps)
        try container.encode(wifiOnly, forKey: .wifiOnly)
        try container.encode(health, forKey: .health)
    }

    /// The AppConfig shape of the recording settings: `sampleRate` a number in 0…1, whatever its stored form.
    struct Wire: Encodable {
        var enabled: Bool
        var sampleRate: Double
        var excludeScreens: [String]
        var maskText: Bool
        var maskImages: Bool
        var unmaskAnchors: [String]
        var maskAnchors: [String]
        var screenshots: Bool
        var maxFps: Int
        var wifiOnly: Bool
        var health: Bool
    }

    var wire: Wire {
        Wire(enabled: enabled, sampleRate: sampleRate, excludeScreens: excludeScreens, maskText: maskText,
             maskImages: maskImages, unmaskAnchors: unmaskAnchors, maskAnchors: maskAnchors, screenshots: screenshots,
             maxFps: maxFps, wifiOnly: wifiOnly, health: health)
    }
}
