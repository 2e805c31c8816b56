import Domain
import Telemetry

/// The AppConfig's bytes with its members in the wire protocol's order (issue 20: `v, rev, app{id,plat,bid},
/// enabled, flush{intervalMs,events}, session{timeoutMs}, events{blocked}, screens{exclude}, identify{enabled},
/// leads{enabled}, recording{enabled,sampleRate,excludeScreens,maskText,maskImages,unmaskAnchors,maskAnchors,
/// screenshots,maxFps,wifiOnly,health}, skan, links{hosts,pathPrefix}, attestation`), written by hand: Foundation's
/// `JSONEncoder` keeps no order unless it sorts the keys. The same values as `AppConfig`'s `Encodable` form.
enum AppConfigJSON {
    static func bytes(_ config: AppConfig) -> [UInt8] {
        let settings = config.settings
        let recording = settings.recording
        var json = JSONBytes(capacity: 640)
        json.append(raw: "{\"v\":")
        json.append(integer: AppConfig.version)
        json.append(raw: ",\"rev\":")
        json.append(integer: config.rev)
        json.append(raw: ",\"app\":{\"id\":")
        json.append(string: config.appId.description)
        json.append(raw: ",\"plat\":")
        json.append(string: config.platform.rawValue)
        json.append(raw: ",\"bid\":")
        json.append(string: config.bundleId)
        json.append(raw: "},\"enabled\":\(settings.enabled),\"flush\":{\"intervalMs\":")
        json.append(integer: settings.flushIntervalMs)
        json.append(raw: ",\"events\":")
        json.append(integer: settings.flushEvents)
        json.append(raw: "},\"session\":{\"timeoutMs\":")
        json.append(integer: settings.sessionTimeoutMs)
        json.append(raw: "},\"events\":{\"blocked\":")
        append(settings.blockedEvents, to: &json)
        json.append(raw: "},\"screens\":{\"exclude\":")
        append(settings.excludedScreens, to: &json)
        json.append(raw: "},\"identify\":{\"enabled\":\(settings.identifyEnabled)},\"leads\":{\"enabled\":")
        json.append(raw: "\(settings.leadsEnabled)},\"recording\":{\"enabled\":\(recording.enabled),\"sampleRate\":")
        json.append(raw: decimal(recording.sampleRate))
        json.append(raw: ",\"excludeScreens\":")
        append(recording.excludeScreens, to: &json)
        json.append(raw: ",\"maskText\":\(recording.maskText),\"maskImages\":\(recording.maskImages),\"unmaskAnchors\":")
        append(recording.unmaskAnchors, to: &json)
        json.append(raw: ",\"maskAnchors\":")
        append(recording.maskAnchors, to: &json)
        json.append(raw: ",\"screenshots\":\(recording.screenshots),\"maxFps\":")
        json.append(integer: recording.maxFps)
        json.append(raw: ",\"wifiOnly\":\(recording.wifiOnly),\"health\":\(recording.health)},\"skan\":\(settings.skan)")
        json.append(raw: ",\"links\":{\"hosts\":")
        append(settings.linkHosts, to: &json)
        json.append(raw: ",\"pathPrefix\":")
        json.append(string: settings.linkPathPrefix)
        json.append(raw: "},\"attestation\":\(settings.attestation)}")
        return json.bytes
    }

    private static func append(_ strings: [String], to json: inout JSONBytes) {
        json.append(byte: UInt8(ascii: "["))
        for (index, text) in strings.enumerated() {
            if index > 0 { json.append(byte: UInt8(ascii: ",")) }
            json.append(string: text)
        }
        json.append(byte: UInt8(ascii: "]"))
    }

    /// A sample rate (0…1, kept in millionths) as JSON writes the number: `0`, `1`, `0.125`.
    static func decimal(_ value: Double) -> String {
        let millionths = Int((value * 1_000_000).rounded())
        let whole = millionths / 1_000_000
        var fraction = String(millionths % 1_000_000)
        guard fraction != "0" else { return String(whole) }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}
