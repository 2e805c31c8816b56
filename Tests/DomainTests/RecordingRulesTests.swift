import Domain
import Foundation
import Testing

/// The pure rules of session recordings (issue 21): the packet's framing and whether a packet is stored.
@Suite struct RecordingRulesTests {
    private let header = Array(#"{"v":1}"#.utf8)

    @Test func aPacketIsX3R1ABigEndianHeaderLengthTheHeaderAndTheEvents() throws {
        let bytes = RecordingFrame.join(header: header, events: [0x1F, 0x8B])
        #expect(Array(bytes.prefix(8)) == Array("X3R1".utf8) + [0, 0, 0, 7])
        #expect(try RecordingFrame.split(bytes).get() == RecordingFrame(header: header, events: [0x1F, 0x8B]))
        #expect(RecordingFrame.split(Array("X3R0".utf8) + bytes.dropFirst(4))
                == .failure(.invalid("packet must start with X3R1")))
        #expect(RecordingFrame.split(Array(bytes.prefix(7))) == .failure(.invalid("packet must start with X3R1")))
        #expect(RecordingFrame.split(RecordingFrame.magic + [0, 0, 0x10, 1] + header)
                == .failure(.invalid("header length must be 2 to 4096")))
        #expect(RecordingFrame.split(Array(bytes.prefix(12)))
                == .failure(.invalid("header length is past the packet's end")))
        #expect(RecordingFrame.split(RecordingFrame.join(header: header, events: []))
                == .failure(.invalid("events are missing after the header")))
    }

    private func decide(_ settings: IngestSettings, mode: IngestConsent.Mode = .optIn, states: String = "gg",
                        screen: String? = "Home") -> Result<RecordingAdmission.Outcome, IngestRefusal> {
        RecordingAdmission.decide(settings: settings, mode: mode, states: states, screen: screen)
    }

    private func settings(_ change: (inout IngestSettings) -> Void) -> IngestSettings {
        var settings = IngestSettings.defaults
        settings.recording.enabled = true
        change(&settings)
        return settings
    }

    @Test func aPacketIsRecordedOnlyWithGGAndRecordingOnInAnAppThatRuns() {
        #expect(decide(.defaults) == .success(.off))
        #expect(decide(settings { _ in }) == .success(.record(keepsScreenshots: false)))
        #expect(decide(settings { $0.enabled = false }) == .success(.off))
        for states in ["gd", "dg", "gp", "pg", "gx", "xx"] {
            #expect(decide(settings { _ in }, states: states) == .success(.off), "\(states)")
        }
        #expect(decide(settings { _ in }, mode: .always) == .success(.record(keepsScreenshots: false)))
    }

    @Test func screenshotsAreKeptOnlyWhileTheSettingIsOnAndNeverInAHealthApp() {
        #expect(decide(settings { $0.recording.screenshots = true }) == .success(.record(keepsScreenshots: true)))
        let health = settings { $0.recording.screenshots = true; $0.recording.health = true }
        #expect(decide(health) == .success(.record(keepsScreenshots: false)))
        #expect(decide(health, mode: .always) == .success(.off))
        #expect(decide(health, mode: .optOut) == .success(.off))
    }

    @Test func anExcludedScreenIsPageExcluded() {
        let excluded = settings { $0.recording.excludeScreens = ["Checkout*", "Settings"] }
        #expect(decide(excluded, screen: "CheckoutCard") == .failure(.pageExcluded))
        #expect(decide(excluded, screen: "Settings") == .failure(.pageExcluded))
        #expect(decide(excluded, screen: "SettingsMore") == .success(.record(keepsScreenshots: false)))
        #expect(decide(excluded, screen: nil) == .success(.record(keepsScreenshots: false)))
    }

    @Test func theConsentOfAPacketIsTwoStates() {
        #expect(RecordingAdmission.parseStates("gg") == .success("gg"))
        #expect(RecordingAdmission.parseStates(nil) == .failure(.invalid("cs is required")))
        for text in ["g", "ggg", "gggg", "gz", ""] {
            #expect(RecordingAdmission.parseStates(text)
                    == .failure(.invalid("cs must be 2 characters of g, d, p, x")))
        }
    }
}
