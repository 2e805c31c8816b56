import Domain
import Testing

struct ProjectUpdateTests {
    static let current = ProjectSettings(name: "App")

    static func change(_ edit: (inout ProjectSettingsChange) -> Void) -> ProjectSettingsChange {
        var change = ProjectSettingsChange(fields: .flags)
        edit(&change)
        return change
    }

    @Test func anUnknownProjectIsNotFound() {
        #expect(ProjectUpdate.decide(current: nil, change: ProjectSettingsChange()) == .failure(Refusal(
            kind: .notFound, code: .notFound, field: "project", message: "no project has this id")))
    }

    @Test func anEmptyChangeLeavesTheProjectUnchanged() {
        #expect(ProjectUpdate.decide(current: Self.current, change: ProjectSettingsChange())
            == .success(.unchanged(Self.current)))
    }

    @Test func settingTheValuesItAlreadyHasLeavesTheProjectUnchanged() {
        #expect(ProjectUpdate.decide(current: Self.current, change: Self.change { $0.name = .set("App") })
            == .success(.unchanged(Self.current)))
    }

    @Test func aRealChangeAnswersTheNewSettings() {
        #expect(ProjectUpdate.decide(current: Self.current, change: Self.change { $0.fingerprint = true })
            == .success(.changed(ProjectSettings(name: "App", fingerprint: true))))
    }

    @Test func aRefusedValueIsAnInvalidRefusalNamingTheFieldAsSpelled() {
        #expect(ProjectUpdate.decide(current: Self.current, change: Self.change { $0.name = .clear })
            == .failure(Refusal(FieldRefusal(field: "--name", code: .projectNameFormat,
                                             rule: "be 1 to 200 characters without control characters"))))
    }
}
