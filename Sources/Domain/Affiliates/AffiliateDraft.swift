/// An affiliate as a tenant describes it (`POST /s2s/v1/affiliates`, `handoff admin affiliate create`): a name, the
/// campaign it earns under (required), and its referral code — or none, and the shell mints one.
public struct AffiliateDraft: Hashable, Sendable {
    public var name: String
    public var campaign: CampaignID
    public var refCode: RefCode?

    /// The most characters (Unicode scalars) a name of an affiliate or a campaign may have.
    public static let maxNameLength = 200
    /// A whole name (lengths apart): no control characters.
    public static let namePattern = "^[^\(ScalarSet.controls.classBody)]*$"

    public init(name: String, campaign: CampaignID, refCode: RefCode?) {
        self.name = name
        self.campaign = campaign
        self.refCode = refCode
    }

    /// Checks the name (the campaign id and the code were parsed already).
    public static func parse(name: String, campaign: CampaignID, refCode: RefCode?, nameField: String = "name")
        -> Result<AffiliateDraft, FieldRefusal>
    {
        self.name(name, field: nameField).map { AffiliateDraft(name: $0, campaign: campaign, refCode: refCode) }
    }

    /// A name of an affiliate or campaign: 1–200 characters without control characters; refusal
    /// `VALIDATION_AFFILIATE_NAME_FORMAT` naming `field`.
    public static func name(_ text: String, field: String) -> Result<String, FieldRefusal> {
        guard (1...maxNameLength).contains(text.unicodeScalars.count),
              !text.unicodeScalars.contains(where: ScalarSet.controls.contains) else {
            return .failure(FieldRefusal(field: field, code: .affiliateNameFormat,
                                         rule: "be 1 to \(maxNameLength) characters without control characters"))
        }
        return .success(text)
    }
}
