import Domain
import Testing

/// A new project's settings: fingerprinting is on until someone turns it off.
struct NewProjectDefaultsTests {
    @Test func aNewProjectHasFingerprintingOn() throws {
        #expect(try ProjectSettings.new(name: "App", change: .init()).get().fingerprint == true)
    }

    @Test func aNewProjectCreatedWithFingerprintingOffHasItOff() throws {
        var change = ProjectSettingsChange()
        change.fingerprint = false
        #expect(try ProjectSettings.new(name: "App", change: change).get().fingerprint == false)
    }

    @Test func changingAnExistingProjectKeepsItsFingerprintSetting() throws {
        let existing = ProjectSettings(name: "Old", fingerprint: false)
        var change = ProjectSettingsChange()
        change.name = .set("Renamed")
        #expect(try existing.applying(change).get().fingerprint == false)
    }
}
