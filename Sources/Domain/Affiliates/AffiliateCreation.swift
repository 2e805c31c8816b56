/// The decider of `POST /s2s/v1/affiliates` and `handoff admin affiliate create`: an affiliate is created in a project
/// that exists, under a campaign of that same project, with a referral code no other affiliate of the project holds.
public enum AffiliateCreation {
    /// What the shell read: whether the project exists, whether the named campaign is one of the project's, and
    /// whether an affiliate of the project already holds the code.
    public struct Facts: Hashable, Sendable {
        public var projectExists: Bool
        public var campaignInProject: Bool
        public var refCodeTaken: Bool

        public init(projectExists: Bool, campaignInProject: Bool, refCodeTaken: Bool) {
            self.projectExists = projectExists
            self.campaignInProject = campaignInProject
            self.refCodeTaken = refCodeTaken
        }
    }

    /// Decides creating an affiliate: 404 `NOT_FOUND` about `project` or about the campaign field (a campaign of
    /// another project or organization is not found, exactly as an unknown one), then 409 `REF_CODE_TAKEN` about the
    /// code field. `fields` names the campaign and code fields as the caller spelled them.
    public static func decide(_ facts: Facts, campaignField: String = "campaignId", refCodeField: String = "refCode")
        -> Result<Void, Refusal>
    {
        guard facts.projectExists else { return .failure(.notFound("no project has this id", field: "project")) }
        guard facts.campaignInProject else {
            return .failure(.notFound("field '\(campaignField)' names no campaign of this project",
                                      field: campaignField))
        }
        guard !facts.refCodeTaken else {
            return .failure(Refusal(kind: .conflict, code: .refCodeTaken, field: refCodeField,
                                    message: "field '\(refCodeField)' is taken by another affiliate of this project"))
        }
        return .success(())
    }
}
