import Domain
import Testing

/// `ProjectSettings.applying(_:)`: the pure decider behind `PATCH /s2s/v1/project` and `admin project update`.
@Suite struct ProjectSettingsChangeTests {
    private let base = ProjectSettings(name: "App")

    private func change(_ edit: (inout ProjectSettingsChange) -> Void) -> ProjectSettingsChange {
        var change = ProjectSettingsChange(fields: .json)
        edit(&change)
        return change
    }

    @Test func anEmptyChangeKeepsEverything() {
        #expect(base.applying(ProjectSettingsChange()) == .success(base))
    }

    @Test func valuesAreValidatedAndNormalized() throws {
        let next = try base.applying(change { $0.returnScheme = .set("MyApp"); $0.fingerprint = true }).get()
        #expect(next.returnScheme == "myapp" && next.fingerprint)
    }

    @Test func clearingAnOptionalSettingMakesItNil() throws {
        let withURL = ProjectSettings(name: "App", paywallUrl: "https://p.example/")
        #expect(try withURL.applying(change { $0.paywallUrl = .clear }).get().paywallUrl == nil)
    }

    @Test func aRefusalNamesTheFieldAsTheCallerSpelledIt() {
        var flags = ProjectSettingsChange(fields: .flags)
        flags.androidPackage = .set("x")
        guard case .failure(let refusal) = base.applying(flags) else { Issue.record("accepted"); return }
        #expect(refusal.field == "--android-package" && refusal.code == .androidPackageFormat)
    }

    @Test func theNameCannotBeClearedOrEmpty() {
        #expect(base.applying(change { $0.name = .clear }).failureCode == .projectNameFormat)
        #expect(base.applying(change { $0.name = .set("") }).failureCode == .projectNameFormat)
        #expect(base.applying(change { $0.name = .set("a\u{7}b") }).failureCode == .projectNameFormat)
    }

    @Test func aTrackerNeedsALinkAndNoTrackerDropsIt() throws {
        #expect(base.applying(change { $0.tracker = .adjust }).failureCode == .trackerLinkFormat)
        #expect(base.applying(change { $0.trackerLink = .set("https://t.example/") }).failureCode == .trackerLinkFormat)
        let tracked = try base.applying(change {
            $0.tracker = .adjust
            $0.trackerLink = .set("https://t.example/")
        }).get()
        #expect(tracked.tracker == .adjust && tracked.trackerLink == "https://t.example/")
        #expect(try tracked.applying(change { $0.tracker = ProjectSettings.Tracker.none }).get().trackerLink == nil)
        #expect(tracked.applying(change { $0.trackerLink = .clear }).failureCode == .trackerLinkFormat)
    }

    @Test func unknownTrackersAreRefused() {
        #expect(ProjectSettings.parseTracker("branch", field: "--tracker")
            == .failure(FieldRefusal(field: "--tracker", code: .trackerFormat, rule: "be none, appsflyer or adjust")))
    }
}

extension Result where Failure == FieldRefusal {
    fileprivate var failureCode: MachineCode? {
        if case .failure(let refusal) = self { return refusal.code }
        return nil
    }
}
