import Domain

/// The field schemas of affiliate programs, links and bind (issue 15), from the constants of their `Domain` parsers.
extension ContractFields {
    static let campaignId = JSONSchema.string(pattern: uuidPattern, lengths: 36...36, format: "uuid")
        .example("3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f")
    private static let uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
    /// A referral code as it may be given: either case, surrounding white space ignored.
    static let refCode = JSONSchema.string(pattern: RefCode.inputPattern, lengths: 6...RefCode.maxInputLength)
        .example("PARTNER7")
        .described("6–16 of \(RefCode.characters.classBody), compared after trimming white space and upper-casing")
    static let affiliateName = JSONSchema.string(pattern: AffiliateDraft.namePattern,
                                                 lengths: 1...AffiliateDraft.maxNameLength).example("Jane's blog")
    static let windowDays = JSONSchema.integer(minimum: CampaignTerms.windowRange.lowerBound,
                                               maximum: CampaignTerms.windowRange.upperBound)
        .described("days a click may be bound and a referral earns (the attribution window), default 30")
    static let holdDays = JSONSchema.integer(minimum: CampaignTerms.holdRange.lowerBound,
                                             maximum: CampaignTerms.holdRange.upperBound)
        .described("days a credited commission is held before it is payable, default 30")
    static let offerCode = JSONSchema.string(CampaignTerms.offerCodeCharacters,
                                             lengths: CampaignTerms.offerCodeLengths)
        .example("SPRING50").described("an App Store offer code bind hands to referred buyers")
    static let signedClickId = JSONSchema.string(pattern: SignedClickID.pattern, lengths: 1...SignedClickID.maxLength)
        .described("the click parameter the affiliate link added to the landing URL, exactly")

    /// `{"type":"percent","basisPoints",…}` or `{"type":"fixed","amountMinor","currency",…}`.
    static let commission: JSONSchema = {
        let renewals = JSONSchema.integer(minimum: CommissionRule.renewals.lowerBound,
                                          maximum: CommissionRule.renewals.upperBound)
            .described("renewals after the first purchase that also earn, default 0 (the first purchase only)")
            .nullable()
        return .oneOf([
            .object([
                .required("type", .constant("percent")),
                .required("basisPoints", .integer(minimum: CommissionRule.basisPoints.lowerBound,
                                                  maximum: CommissionRule.basisPoints.upperBound)
                    .described("of the transaction's price; 10000 = all of it")),
                .optional("recurringRenewals", renewals),
            ]),
            .object([
                .required("type", .constant("fixed")),
                .required("amountMinor", .integer(minimum: 1, maximum: CommissionRule.maxAmountMinor)
                    .described("per conversion, in minor units of currency")),
                .required("currency", currency),
                .optional("recurringRenewals", renewals),
            ]),
        ])
    }()
}
