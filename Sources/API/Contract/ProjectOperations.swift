import Domain

/// `GET` and `PATCH /s2s/v1/project`.
enum ProjectOperations {
    /// Links from an answer that carries the project's id to what a client does with it next.
    static let links: [OpenAPILink] = [
        OpenAPILink(name: "publicEntitlements", operationId: "getPublicEntitlements",
                    parameters: [("projectId", "$response.body#/projectId")],
                    description: "a device asks for a buyer's entitlements in this project"),
        OpenAPILink(name: "paywallBuyer", operationId: "getPaywallBuyer",
                    parameters: [("projectId", "$response.body#/projectId")],
                    description: "the paywall asks who its buyer is"),
        OpenAPILink(name: "resolveByFingerprint", operationId: "resolveByFingerprint",
                    requestBody: ["projectId": "$response.body#/projectId"],
                    description: "an app asks for its buyer by fingerprint"),
        OpenAPILink(name: "emailRecovery", operationId: "requestEmailRecovery",
                    requestBody: ["projectId": "$response.body#/projectId"],
                    description: "a buyer asks for a recovery mail"),
        OpenAPILink(name: "user", operationId: "createUser", description: "find or create a buyer of this project"),
        OpenAPILink(name: "payment", operationId: "createPayment", description: "record a payment in this project"),
        OpenAPILink(name: "update", operationId: "updateProject", description: "change the settings"),
        OpenAPILink(name: "history", operationId: "listEvents", description: "read the organization's history"),
        OpenAPILink(name: "auditHeads", operationId: "listAuditHeads",
                    description: "read the organization's signed chain heads"),
        OpenAPILink(name: "auditKeys", operationId: "listAuditKeys", description: "read the audit public keys"),
        OpenAPILink(name: "paymentReport", operationId: "getPaymentReport",
                    description: "read the organization's payment report at its signed chain head"),
        OpenAPILink(name: "contract", operationId: "getOpenAPIDocument", description: "what every route takes"),
    ] + DiagnosticsOperations.projectLinks + AppOperations.projectLinks + AffiliateOperations.projectLinks
        + LinkOperations.projectLinks

    static let show = OpenAPIOperation(
        id: "getProject", summary: "The key's project settings", tag: "server-to-server",
        responses: [.json(200, "the project; unset values null", .ref("Project"), links: links)])

    static let update = OpenAPIOperation(
        id: "updateProject", summary: "Change the key's project settings",
        description: "An absent field is kept; null clears an optional one. tracker and trackerLink change together: "
            + "trackerLink is only taken with tracker, a tracker other than none needs its link, none takes none. "
            + "With adjust, a *.go.link or *.adj.st link needs its own adj_t parameter "
            + "(VALIDATION_TRACKER_LINK_ADJ_T_REQUIRED).",
        tag: "server-to-server", body: patchBody,
        responses: [
            .json(200, "the updated project", .ref("Project"), links: links),
            .error(400, "a field is refused; the message names it", codes: ContractFields.bodyCodes + [
                .projectNameFormat, .paywallURLFormat, .returnSchemeFormat, .androidPackageFormat, .bundleIDFormat,
                .trackerFormat, .trackerLinkFormat, .trackerLinkAdjTRequired, .emailVerificationFormat,
                .landingURLFormat,
            ]),
        ])

    /// The settings every branch of the body may carry, without the tracker pair.
    private static let settings: [JSONSchema.Property] = [
        .optional("name", ContractFields.projectName),
        .optional("paywallUrl", ContractFields.url.nullable()),
        .optional("returnScheme", ContractFields.returnScheme.nullable()),
        .optional("androidPackage", ContractFields.androidPackage.nullable()),
        .optional("iosBundleId", ContractFields.iosBundleId.nullable()),
        .optional("fingerprint", .boolean),
        .optional("emailVerification", ContractFields.emailVerification),
        .optional("landingUrl", ContractFields.url.nullable()
            .described("where affiliate links (GET /a/{refCode}) lead, with click=<signedClickId> added; null: to "
                + "paywallUrl")),
    ]

    /// One branch per tracker choice (none given, none, appsflyer, adjust), each closed to other fields.
    static let patchBody: JSONSchema = {
        let universal = JSONSchema([.init("pattern", .string(TrackerLink.adjustUniversalLinkPattern))])
        let withAdjT = JSONSchema([.init("pattern", .string(TrackerLink.adjTParameterPattern))])
        let adjustLink = JSONSchema.anyOf([
            ContractFields.url.excluding(universal), ContractFields.url.with("allOf", [withAdjT.json]),
        ])
        return .oneOf([
            .object(settings),
            .object(settings + [.required("tracker", .constant("none")), .optional("trackerLink", .null)]),
            .object(settings + [.required("tracker", .constant("appsflyer")),
                                .required("trackerLink", ContractFields.url)]),
            .object(settings + [.required("tracker", .constant("adjust")), .required("trackerLink", adjustLink)]),
        ])
    }()
}
