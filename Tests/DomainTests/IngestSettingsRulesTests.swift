import Domain
import Foundation
import Testing

/// The settings rules shared by `handoff admin app ingest-settings` and `PATCH /s2s/v1/apps/{appId}` (issue 20), and
/// the Apple Ads resolution (`AppleAdsResolution`).
@Suite struct IngestSettingsRulesTests {
    private func apply(_ changes: [String: IngestSettingsChange.Value]) -> Result<IngestSettings, FieldRefusal> {
        IngestSettingsChange.apply(changes, to: .defaults, field: { "ingest." + $0 })
    }

    @Test func typedValuesSetEveryNewSettingAndTextDoesTheSame() throws {
        let typed = try apply([
            "skan": .bool(true), "attestation": .bool(true), "link-hosts": .list(["go.example.com", "a-b.example"]),
            "link-path-prefix": .text("/app/v1"), "recording-max-fps": .number(30), "recording-wifi-only": .bool(false),
            "recording-mask-text": .bool(false), "recording-mask-images": .bool(false),
            "recording-unmask-anchors": .list(["title"]), "recording-mask-anchors": .list(["card", "iban"]),
            "recording-sample-rate": .number(0.5), "blocked-events": .list(["ünïcödé"]),
        ]).get()
        #expect(typed.skan && typed.attestation && typed.linkHosts == ["go.example.com", "a-b.example"])
        #expect(typed.linkPathPrefix == "/app/v1" && typed.recording.maxFps == 30 && !typed.recording.wifiOnly)
        #expect(!typed.recording.maskText && !typed.recording.maskImages)
        #expect(typed.recording.unmaskAnchors == ["title"] && typed.recording.maskAnchors == ["card", "iban"])
        #expect(typed.recording.sampleRate == 0.5 && typed.blockedEvents == ["ünïcödé"])
        let text = try IngestSettingsChange.apply(
            ["skan": "on", "attestation": "on", "link-hosts": "go.example.com,a-b.example",
             "link-path-prefix": "/app/v1", "recording-max-fps": "30", "recording-wifi-only": "off", "recording-mask-text": "off",
             "recording-mask-images": "off", "recording-unmask-anchors": "title", "recording-mask-anchors": "card,iban",
             "recording-sample-rate": "0.5", "blocked-events": "ünïcödé"], to: .defaults).get()
        #expect(text == typed)
    }

    @Test func listItemsCountUnicodeScalarsNotBytes() throws {
        let long = String(repeating: "é", count: 128)
        #expect(try apply(["blocked-events": .list([long])]).get().blockedEvents == [long])
        #expect(throws: FieldRefusal.self) { try apply(["blocked-events": .list([long + "é"])]).get() }
    }

    @Test func eachBadValueIsRefusedNamingItsField() {
        let cases: [(String, IngestSettingsChange.Value)] = [
            ("skan", .text("yes")), ("skan", .number(1)), ("recording-max-fps", .number(0)),
            ("recording-max-fps", .number(31)), ("recording-max-fps", .number(2.5)), ("flush-events", .bool(true)),
            ("recording-sample-rate", .number(-0.1)), ("recording-sample-rate", .number(.nan)),
            ("link-hosts", .list(["Go.example.com"])), ("link-hosts", .list(["-a.example"])),
            ("link-hosts", .list(["a..b"])), ("link-hosts", .list([String(repeating: "a", count: 64)])),
            ("link-path-prefix", .text("app")), ("link-path-prefix", .text("/a b")),
            ("link-path-prefix", .text("/" + String(repeating: "a", count: 256))),
            ("blocked-events", .list(["a,b"])), ("blocked-events", .list([""])), ("blocked-events", .list(["a\tb"])),
            ("blocked-events", .list(Array(repeating: "a", count: 101))), ("exclude-screens", .bool(false)),
        ]
        for (name, value) in cases {
            guard case .failure(let refusal) = apply([name: value]) else {
                Issue.record("\(name)=\(value) was taken")
                continue
            }
            #expect(refusal.field == "ingest." + name && refusal.code == .validationFailed, "\(name)")
        }
    }

    @Test func appleAdsAnswersDecideTheFinalTierOrARetry() {
        func decide(_ status: Int?, _ attributed: Bool? = nil, last: Bool = false, link: Bool = false)
            -> AppleAdsResolution.Decision {
            AppleAdsResolution.decide(status: status, attributed: attributed, record: "{}", lastAttempt: last,
                                      link: link, identity: false)
        }
        #expect(decide(200, true) == .resolve(.appleAds, reason: "attributed", attribution: "{}"))
        #expect(decide(200, false) == .resolve(.organic, reason: "not_attributed", attribution: nil))
        #expect(decide(200, false, link: true) == .resolve(.link, reason: "not_attributed", attribution: nil))
        #expect(decide(400) == .resolve(.organic, reason: "invalid_token", attribution: nil))
        #expect(decide(404) == .retry("status 404"))
        #expect(decide(503) == .retry("status 503"))
        #expect(decide(nil) == .retry("no answer"))
        #expect(decide(200) == .retry("an unreadable answer"))
        #expect(decide(404, last: true, link: true) == .resolve(.link, reason: "unresolved", attribution: nil))
        #expect(AppleAdsResolution.fallback(link: false, identity: true) == .identity)
    }

    @Test func aSampleRateIsStoredAsAWholeNumberOfMillionthsAndReadBackTheSame() throws {
        var settings = IngestSettings.defaults
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for (rate, stored) in [(0.0, #""sampleRate":0"#), (1.0, #""sampleRate":1"#),
                               (0.25, #""sampleRatePerMillion":250000"#), (0.1, #""sampleRatePerMillion":100000"#),
                               (0.000_001, #""sampleRatePerMillion":1"#)] {
            settings.recording.sampleRate = rate
            let text = String(decoding: try encoder.encode(settings), as: UTF8.self)
            #expect(text.contains(stored) && !text.contains("e-"), "\(rate): \(text)")
            #expect(try JSONDecoder().decode(IngestSettings.self, from: Data(text.utf8)) == settings, "\(rate)")
        }
        // Settings stored before millionths (a `sampleRate` of 0 or 1) still read.
        let old = String(decoding: try encoder.encode(IngestSettings.defaults), as: UTF8.self)
        #expect(try JSONDecoder().decode(IngestSettings.self, from: Data(old.utf8)) == .defaults)
        // A change is kept to millionths.
        #expect(try apply(["recording-sample-rate": .number(0.123_456_7)]).get().recording.sampleRate == 0.123_457)
    }
}
