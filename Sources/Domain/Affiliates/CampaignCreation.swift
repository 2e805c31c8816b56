/// The decider of `POST /s2s/v1/campaigns` and `handoff admin affiliate campaign create`: a campaign is created only
/// in a project that exists (for S2S, the key's own project). The terms were checked before (`CampaignTerms.parse`).
public enum CampaignCreation {
    /// Decides creating a campaign; a missing project is 404 `NOT_FOUND` about `project`.
    public static func decide(projectExists: Bool) -> Result<Void, Refusal> {
        projectExists ? .success(()) : .failure(.notFound("no project has this id", field: "project"))
    }
}
