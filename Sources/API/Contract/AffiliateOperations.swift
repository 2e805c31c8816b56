import Commands
import Domain

/// `/s2s/v1/campaigns`, `/s2s/v1/affiliates`, `GET /a/{refCode}` and `POST /v1/app-store/bind` (issue 15).
enum AffiliateOperations {
    static let campaign = JSONSchema.object([
        .required("campaignId", ContractSchemas.uuid), .required("projectId", ContractSchemas.uuid),
        .required("name", JSONSchema.string()), .required("commission", ContractFields.commission),
        .required("windowDays", ContractFields.windowDays), .required("holdDays", ContractFields.holdDays),
        .required("offerCode", ContractFields.offerCode.nullable()), .required("createdAt", ContractSchemas.instant),
    ])

    static let affiliate = JSONSchema.object([
        .required("affiliateId", ContractSchemas.uuid), .required("projectId", ContractSchemas.uuid),
        .required("campaignId", ContractSchemas.uuid), .required("name", JSONSchema.string()),
        .required("refCode", JSONSchema.string(pattern: RefCode.pattern, lengths: RefCode.lengths)
            .described("in normal form: upper-case")),
        .required("link", JSONSchema.string(format: "uri")
            .described("PUBLIC_BASE_URL/a/<refCode>?p=<projectId>: the link to share")),
        .required("createdAt", ContractSchemas.instant),
    ])

    /// Links from the project answer to the affiliate routes.
    static let projectLinks: [OpenAPILink] = [
        OpenAPILink(name: "createCampaign", operationId: "createCampaign",
                    description: "start an affiliate program in this project"),
        OpenAPILink(name: "campaigns", operationId: "listCampaigns", description: "the project's campaigns"),
        OpenAPILink(name: "affiliates", operationId: "listAffiliates", description: "the project's affiliates"),
    ]

    /// Links from an answer carrying an affiliate (`refCode`, `projectId` at the top) to its link and to bind.
    static let affiliateLinks: [OpenAPILink] = [
        OpenAPILink(name: "follow", operationId: "followAffiliateLink",
                    parameters: [("refCode", "$response.body#/refCode"), ("p", "$response.body#/projectId")],
                    description: "a visitor follows the affiliate's link"),
        OpenAPILink(name: "bindByCode", operationId: "bindReferral",
                    requestBody: ["projectId": "$response.body#/projectId", "refCode": "$response.body#/refCode"],
                    description: "an app binds its buyer's appAccountToken by the affiliate's code"),
        OpenAPILink(name: "affiliates", operationId: "listAffiliates", description: "all affiliates of the project"),
        OpenAPILink(name: "statement", operationId: "getAffiliateStatement",
                    parameters: [("affiliateId", "$response.body#/affiliateId")],
                    description: "the affiliate's commission statement"),
    ]

    static let codes: [MachineCode] = ContractFields.bodyCodes + [
        .affiliateNameFormat, .commissionFormat, .currencyFormat, .windowDaysFormat, .holdDaysFormat,
        .offerCodeFormat,
    ]

    static let createCampaign = OpenAPIOperation(
        id: "createCampaign", summary: "Create an affiliate campaign in the key's project",
        description: "commission: a percent of the price in basis points or a fixed amount per conversion, for the "
            + "first purchase and recurringRenewals renewals after it. windowDays: how long a click may be bound and "
            + "a bound referral earns; holdDays: how long a credit is held. A campaign's terms never change. null "
            + "counts as absent.",
        tag: "server-to-server",
        body: .object([
            .required("name", ContractFields.affiliateName), .required("commission", ContractFields.commission),
            .optional("windowDays", ContractFields.windowDays.nullable()),
            .optional("holdDays", ContractFields.holdDays.nullable()),
            .optional("offerCode", ContractFields.offerCode.nullable()),
        ]),
        responses: [
            .json(201, "the campaign", campaign, links: [
                OpenAPILink(name: "createAffiliate", operationId: "createAffiliate",
                            requestBody: ["campaignId": "$response.body#/campaignId", "name": "Partner"],
                            description: "add an affiliate who earns under it"),
                OpenAPILink(name: "campaigns", operationId: "listCampaigns", description: "all campaigns"),
            ]),
            .error(400, "a field is refused; the message names it", codes: codes),
        ])

    static let campaigns = OpenAPIOperation(
        id: "listCampaigns", summary: "The key's project's affiliate campaigns, oldest first", tag: "server-to-server",
        responses: [.json(200, "the campaigns", .object([.required("campaigns", .array(campaign))]))])

    static let createAffiliate = OpenAPIOperation(
        id: "createAffiliate", summary: "Create an affiliate under a campaign of the key's project",
        description: "refCode is unique in the project (409 REF_CODE_TAKEN), compared after trimming and "
            + "upper-casing; absent or null, an 8-character code is minted. A campaign of another project or "
            + "organization is 404, as an unknown one.",
        tag: "server-to-server",
        body: .object([
            .required("name", ContractFields.affiliateName), .required("campaignId", ContractFields.campaignId),
            .optional("refCode", ContractFields.refCode.nullable()),
        ]),
        responses: [
            .json(201, "the affiliate with its code and link", affiliate, links: affiliateLinks),
            .error(400, "a field is refused; the message names it",
                   codes: codes + [.campaignIDFormat, .refCodeFormat]),
            .error(404, "the key's project has no campaign with this id", codes: [.notFound]),
            .error(409, "REF_CODE_TAKEN: another affiliate of the project has this code", codes: [.refCodeTaken]),
        ])

    static let affiliates = OpenAPIOperation(
        id: "listAffiliates", summary: "The key's project's affiliates, oldest first, with their links",
        tag: "server-to-server",
        responses: [.json(200, "the affiliates", .object([.required("affiliates", .array(affiliate))]))])

    static let link = OpenAPIOperation(
        id: "followAffiliateLink", summary: "An affiliate's link: records a click and redirects to the landing URL",
        description: "302 to the project's landingUrl (else its paywallUrl) with click=<signedClickId> added to the "
            + "query; no cookie. The click id expires with the campaign's window. Without p the code resolves only "
            + "when exactly one project holds it. No IP address or user agent is kept.",
        tag: "public",
        parameters: [
            .path("refCode", ContractFields.refCode),
            .query("p", ContractFields.projectId, "the project whose affiliate holds the code"),
        ],
        responses: [
            OpenAPIResponse(status: 302, description: "to the landing URL with click=<signedClickId>", content: nil,
                            headers: [
                                ("Location", JSONSchema.string(format: "uri"), "the landing URL with click=…"),
                                ("Cache-Control", .constant("no-store"), "never cached"),
                                ("Referrer-Policy", .constant("no-referrer"), "the landing page learns no referrer"),
                            ]),
            OpenAPIResponse(status: 404, description: "one fixed page for an unknown, malformed or ambiguous code, "
                            + "or a project without a landing or paywall URL", content: ("text/html", .string())),
            PublicOperations.limited(Environment.defaultAffiliateLinkLimit),
        ])

    static let bind = OpenAPIOperation(
        id: "bindReferral", summary: "Bind the appAccountToken an app passes to StoreKit to an affiliate's referral",
        description: "Exactly one of signedClickId (the click parameter of the landing URL) and refCode (typed by the "
            + "buyer). With a guid the referral attaches to that guid's appAccountToken (POST "
            + "/public/app-account-token's, minted when absent); without one a fresh token is minted once per click. "
            + "Idempotent per token and click; a token's referral is not replaced while its window is open (first "
            + "touch wins): the answer reports the referral that holds. null counts as absent.",
        tag: "public",
        // Exactly one of the two, each variant allowing the other only as null (which counts as absent).
        body: .oneOf([
            .object([
                .required("projectId", ContractFields.projectId),
                .required("signedClickId", ContractFields.signedClickId), .optional("refCode", .null),
                .optional("guid", ContractFields.guid),
            ]),
            .object([
                .required("projectId", ContractFields.projectId),
                .required("refCode", ContractFields.refCode), .optional("signedClickId", .null),
                .optional("guid", ContractFields.guid),
            ]),
        ]),
        responses: [
            .json(200, "the token and the referral that holds for it", ContractSchemas.success(.object([
                .required("appAccountToken", ContractSchemas.uuid),
                .required("offerCode", ContractFields.offerCode.nullable()
                    .described("the holding referral's campaign's App Store offer code")),
                .required("expiresAt", ContractSchemas.instant.described("the end of the holding referral's window")),
            ]))),
            .error(400, "a field is refused (named): neither or both of signedClickId and refCode, a malformed value, "
                   + "or VISITOR_ID_FOREIGN_PROJECT (nothing recorded)",
                   codes: ContractFields.bodyCodes + [.projectIDFormat, .signedClickIDFormat, .refCodeFormat,
                                                      .signedClickIDOrRefCodeRequired] + BuyerOperations.guidCodes),
            .error(404, "one answer for an unknown project and an unknown, expired, tampered or foreign-project click "
                   + "or code", codes: []),
            PublicOperations.limited(Environment.defaultBindLimit),
        ])
}
