/// The decider of `POST /s2s/v1/links` and `handoff admin link create`: a link is created only in a project that
/// exists, only with apps of that project on the right platform, and with a code no other link of the organization
/// has.
public enum GoLinkCreation {
    /// What the store knew when the command was decided.
    public struct Facts: Sendable, Equatable {
        public var projectExists: Bool
        /// The platform of the app `iosAppId` names in the project; nil when the project has no such app (or none
        /// was given).
        public var iosAppPlatform: DevicePlatform?
        public var androidAppPlatform: DevicePlatform?
        public var codeTaken: Bool

        public init(projectExists: Bool, iosAppPlatform: DevicePlatform?, androidAppPlatform: DevicePlatform?,
                    codeTaken: Bool) {
            self.projectExists = projectExists
            self.iosAppPlatform = iosAppPlatform
            self.androidAppPlatform = androidAppPlatform
            self.codeTaken = codeTaken
        }
    }

    /// Decides creating `draft`; refusals name `iosAppId`, `androidAppId` or `code`.
    public static func decide(_ draft: GoLinkDraft, _ facts: Facts) -> Result<Void, Refusal> {
        guard facts.projectExists else { return .failure(.notFound("no project has this id", field: "project")) }
        for (id, platform, field, wanted) in [(draft.iosAppId, facts.iosAppPlatform, "iosAppId", DevicePlatform.ios),
                                              (draft.androidAppId, facts.androidAppPlatform, "androidAppId",
                                               .android)] where id != nil {
            guard let platform else {
                return .failure(.notFound("field '\(field)' names no app of the project", field: field))
            }
            guard platform == wanted else {
                return .failure(Refusal(FieldRefusal(field: field, code: .linkAppPlatform,
                                                     rule: "name an \(wanted.rawValue) app of the project")))
            }
        }
        guard !facts.codeTaken else {
            return .failure(Refusal(kind: .conflict, code: .linkCodeTaken, field: "code",
                                    message: "another link of the organization has this code"))
        }
        return .success(())
    }
}
