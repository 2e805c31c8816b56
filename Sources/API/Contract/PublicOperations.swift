import Domain

/// The device- and browser-facing routes under `/public` and the post-payment page.
enum PublicOperations {
    /// 429 over a per-client-IP limit (`limit`), with `Retry-After`.
    static func limited(_ limit: RateLimit, _ more: String = "") -> OpenAPIResponse {
        .error(429, "over \(limit.burst) per \(Int((Double(limit.burst) / limit.perSecond).rounded())) s from this "
               + "client IP\(more)", codes: [.rateLimited], retryAfter: true)
    }

    static let entitlements = OpenAPIOperation(
        id: "getPublicEntitlements", summary: "A buyer's entitlements, for devices", tag: "public",
        parameters: [.query("projectId", ContractFields.projectId, required: true),
                     .query("guid", ContractFields.guid, required: true)],
        responses: [
            .json(200, "the entitlements", ContractSchemas.success(.ref("Entitlements"))),
            .error(400, "VALIDATION_GUID_FORMAT, or VISITOR_ID_FOREIGN_PROJECT", codes: BuyerOperations.guidCodes),
            .error(404, "no project has this projectId", codes: []),
            limited(Environment.defaultPublicEntitlementsLimit),
        ])

    static let paywallBuyer = OpenAPIOperation(
        id: "getPaywallBuyer", summary: "Who the buyer on the paywall is",
        description: "origin=app with a non-empty id names the buyer (even with a pass); otherwise a valid pass "
            + "does; an id without origin=app is ignored.",
        tag: "public",
        parameters: [
            .query("projectId", ContractFields.projectId, required: true),
            .query("origin", .string(), "app: the id parameter names the buyer"),
            .query("id", ContractFields.guid, "the app's buyer id, read with origin=app"),
            .query("pass", .string(), "the pass of a paywall URL"),
        ],
        responses: [
            .json(200, "the buyer and which parameter named it", ContractSchemas.success(.object([
                .required("guid", ContractFields.guid), .required("source", .enumeration(["id", "pass"])),
            ])), links: BuyerOperations.lookups("/data/guid")),
            .error(400, "VISITOR_ID_FOREIGN_PROJECT, or VALIDATION_GUID_FORMAT for an id read with origin=app",
                   codes: BuyerOperations.guidCodes),
            .error(404, "nothing usable, a tampered or expired pass, or an unknown project", codes: []),
            limited(Environment.defaultPaywallBuyerLimit),
        ])

    static let postPaymentPage = OpenAPIOperation(
        id: "getPostPaymentPage", summary: "The post-payment page: the code, open-the-app and store buttons",
        tag: "public",
        parameters: [.path("pageToken", ContractFields.pageToken, "the last segment of postPaymentUrl")],
        responses: [
            OpenAPIResponse(status: 200, description: "English or Russian by Accept-Language; a redeemed or "
                            + "expired code is not shown", content: ("text/html", .string())),
            OpenAPIResponse(status: 404, description: "one fixed page for every bad, tampered or unknown token",
                            content: ("text/html", .string())),
        ])

    static let resolveCode = OpenAPIOperation(
        id: "resolveCode", summary: "Exchange a handoff code or install token, once, for its buyer's guid",
        tag: "public",
        parameters: [.query("code", ContractFields.code, required: true)],
        responses: [
            .json(200, "the buyer and the project where the payment was recorded", ContractSchemas.success(.object([
                .required("guid", ContractFields.guid), .required("projectId", ContractSchemas.uuid),
            ])), links: BuyerOperations.lookups("/data/guid") + [
                OpenAPILink(name: "publicEntitlements", operationId: "getPublicEntitlements",
                            parameters: [("projectId", "$response.body#/data/projectId"),
                                         ("guid", "$response.body#/data/guid")],
                            description: "the app asks for the buyer's entitlements"),
                OpenAPILink(name: "paywallBuyer", operationId: "getPaywallBuyer",
                            parameters: [("projectId", "$response.body#/data/projectId"), ("origin", "app"),
                                         ("id", "$response.body#/data/guid")],
                            description: "the app opens the paywall for its buyer"),
            ]),
            .error(404, "the same answer for an unknown, expired, used, malformed or missing code", codes: []),
            limited(Environment.defaultResolveLimit, ", or a recently failed IP while the deployment's failed-lookup "
                    + "budget (RESOLVE_FAILED_LOOKUPS_PER_MINUTE) is spent"),
        ])

    static let emailRecovery = OpenAPIOperation(
        id: "requestEmailRecovery",
        summary: "Ask for a recovery mail (sent only to a buyer with a payment, at most one per address per 20 min)",
        tag: "public",
        parameters: [.header("Accept-Language", .string(), "ru or en picks the mail's language (default en)")],
        body: .object([.required("projectId", ContractFields.projectId), .required("email", ContractFields.email)]),
        responses: [
            .empty(204, "accepted, whether or not the address or the project is known"),
            .error(400, "a malformed body; the message names the field",
                   codes: ContractFields.bodyCodes + [.projectIDFormat, .emailFormat]),
            limited(Environment.defaultEmailRecoveryLimit),
        ])
}
