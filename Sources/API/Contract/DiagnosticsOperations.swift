import Domain

/// The diagnostics routes (issue 18, docs/diagnostics.md): buyer and payment timelines, the handoff report.
enum DiagnosticsOperations {
    /// `{"identified":true,"path","at","text"}` or `{"identified":false,"reason","text"}`.
    static let verdict = JSONSchema.oneOf([
        .object([
            .required("identified", .constant(.bool(true))),
            .required("path", .enumeration(IdentificationPath.allCases.map(\.rawValue))),
            .required("at", ContractSchemas.instant), .required("text", .string()),
        ]),
        .object([
            .required("identified", .constant(.bool(false))), .required("reason", .string()),
            .required("text", .string()),
        ]),
    ])

    static let timeline = JSONSchema.object([
        .required("guid", ContractFields.guid),
        .required("paymentId", ContractFields.paymentId.nullable()),
        .required("verdict", verdict),
        .required("entries", .array(.object([
            .required("at", ContractSchemas.instant), .required("event", .string()), .required("line", .string()),
            .required("orgSeq", .integer(minimum: 1)),
            .required("paymentId", ContractFields.paymentId.nullable()),
        ]))),
        .required("truncated", .boolean),
    ])

    static let userTimeline = OpenAPIOperation(
        id: "getUserTimeline", summary: "A buyer's facts in order, each explained, under a verdict",
        description: "Whether and how the app learned the buyer's guid, or the likeliest reason why not and what to "
            + "do. Refusals the devices saw as 404 appear with their reason. No personal data, codes redacted.",
        tag: "server-to-server",
        parameters: [.path("guid", ContractFields.guid)],
        responses: [
            .json(200, "the timeline, oldest fact first", timeline),
            .error(400, "VALIDATION_GUID_FORMAT", codes: [.guidFormat]),
            .error(404, "this organization has no buyer with this guid", codes: [.notFound]),
        ])

    static let paymentTimeline = OpenAPIOperation(
        id: "getPaymentTimeline",
        summary: "A payment's facts (and its buyer's) in order, each explained, under a verdict",
        tag: "server-to-server",
        parameters: [.path("paymentId", ContractFields.paymentId)],
        responses: [
            .json(200, "the timeline, oldest fact first", timeline),
            .error(400, "VALIDATION_PAYMENT_ID_FORMAT", codes: [.paymentIDFormat]),
            .error(404, "this organization recorded no payment with this paymentId", codes: [.notFound]),
        ])

    /// Links from an answer with a buyer's `guid` at `pointer` to its timeline.
    static func userTimelineLink(_ pointer: String) -> OpenAPILink {
        OpenAPILink(name: "timeline", operationId: "getUserTimeline",
                    parameters: [("guid", "$response.body#\(pointer)")], description: "the buyer's timeline")
    }

    /// A link from an answer with a `paymentId` at `pointer` to its timeline.
    static func paymentTimelineLink(_ pointer: String) -> OpenAPILink {
        OpenAPILink(name: "timeline", operationId: "getPaymentTimeline",
                    parameters: [("paymentId", "$response.body#\(pointer)")], description: "the payment's timeline")
    }

    static let count = JSONSchema.integer(minimum: 0)

    /// Links from the project to its handoff report and dashboard.
    static let projectLinks: [OpenAPILink] = [
        OpenAPILink(name: "handoffReport", operationId: "getHandoffReport",
                    description: "read the project's handoff funnel"),
        OpenAPILink(name: "dashboardLink", operationId: "createDashboardLink",
                    description: "a link to the project's handoff dashboard"),
    ]

    /// Horizon name → count, for each of `HandoffFunnel.horizons`.
    static func horizons(_ value: JSONSchema) -> JSONSchema {
        .object(HandoffFunnel.horizons.map { .required($0.name, value) })
    }

    static let handoffReport = OpenAPIOperation(
        id: "getHandoffReport",
        summary: "The key's project's handoff funnel: payments identified within 1 h / 24 h / 7 d, by path",
        description: "Payments recorded in [from, to) (each bound open when absent), each judged with its buyer's "
            + "timeline; shares in basis points of the payments; the median seconds from payment to "
            + "identification; fingerprint refusals of these payments by reason; one page of the unidentified "
            + "payments with their verdicts.",
        tag: "server-to-server",
        parameters: [
            .query("from", ContractFields.expiresAt, "RFC 3339; the range's start (inclusive)"),
            .query("to", ContractFields.expiresAt, "RFC 3339; the range's end (exclusive)"),
            .query("offset", .integer(minimum: 0, maximum: HandoffReportHandler.maximumOffset),
                   "unidentified payments to skip; default 0"),
            .query("limit", .integer(minimum: 1, maximum: HandoffReportHandler.maximumLimit),
                   "unidentified payments per page; default \(HandoffReportHandler.defaultLimit)"),
        ],
        responses: [
            .json(200, "the report", .object([
                .required("projectId", ContractSchemas.uuid),
                .required("from", ContractSchemas.instant.nullable()),
                .required("to", ContractSchemas.instant.nullable()),
                .required("payments", count),
                .required("identified", horizons(.object([
                    .required("count", count), .required("shareBasisPoints", .integer(minimum: 0, maximum: 10000)),
                ]))),
                .required("byPath", .object(IdentificationPath.allCases.map {
                    .required($0.rawValue, horizons(count))
                })),
                .required("medianSecondsToIdentification", count.nullable()),
                .required("fingerprintRefusals", .object(["ambiguous", "contradicting", "windowPassed", "disabled"]
                    .map { .required($0, count) })),
                .required("unidentified", .object([
                    .required("items", .array(.object([
                        .required("paymentId", ContractFields.paymentId), .required("guid", ContractFields.guid),
                        .required("paidAt", ContractSchemas.instant),
                        .required("verdict", .object([.required("reason", .string()), .required("text", .string())])),
                    ]))),
                    .required("nextOffset", count.nullable()), .required("total", count),
                ])),
                .required("truncated", .boolean),
            ])),
            .error(400, "from, to, offset or limit refused (named)", codes: [.validationFailed]),
        ])

    /// A dashboard token: base64url of 56 bytes.
    static let dashboardToken = JSONSchema.string(pattern: "^[A-Za-z0-9_-]{75}$")

    static let createDashboardLink = OpenAPIOperation(
        id: "createDashboardLink", summary: "A signed link to the key's project's handoff dashboard, valid 1 hour",
        description: "Anyone holding the URL sees the dashboard until expiresAt; nothing is stored, so a link cannot "
            + "be revoked before then. Any body is ignored.",
        tag: "server-to-server",
        responses: [
            .json(200, "the link", .object([
                .required("url", JSONSchema.string(format: "uri").described("PUBLIC_BASE_URL/dashboard/<token>")),
                .required("token", dashboardToken), .required("expiresAt", ContractSchemas.instant),
            ]), links: [
                OpenAPILink(name: "dashboard", operationId: "getDashboard",
                            parameters: [("token", "$response.body#/token")], description: "open the dashboard"),
            ]),
        ])

    static let dashboard = OpenAPIOperation(
        id: "getDashboard", summary: "The read-only handoff dashboard a dashboard link opens",
        tag: "public",
        parameters: [.path("token", dashboardToken, "the last segment of the dashboard link")],
        responses: [
            OpenAPIResponse(status: 200, description: "English or Russian by Accept-Language: the funnel, paths, "
                            + "time to identification and refusals of the last 30 days as inline SVG",
                            content: ("text/html", .string())),
            OpenAPIResponse(status: 404, description: "one fixed page for every bad, tampered or expired link",
                            content: ("text/html", .string())),
        ])
}
