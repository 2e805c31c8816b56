import Commands
import Domain

/// The commission ledger's route (issue 15): an affiliate's statement.
enum CommissionOperations {
    static let entry = JSONSchema.object([
        .required("entry", .enumeration(["credit", "reversal"])), .required("eventId", ContractSchemas.uuid),
        .required("orgSeq", .integer(minimum: 1)),
        .required("hash", .string(pattern: "^[0-9a-f]{64}$", lengths: 64...64)),
        .required("recordedAt", ContractSchemas.instant), .required("transactionId", .string()),
        .required("originalTransactionId", .string()), .required("campaignId", ContractSchemas.uuid),
        .required("saleType", JSONSchema.enumeration(["first_purchase", "renewal"]).nullable()),
        .required("baseAmount", JSONSchema.integer(minimum: 0).nullable()),
        .required("baseCurrency", JSONSchema.string().nullable()),
        .required("amount", .integer(minimum: 1)), .required("currency", .string(pattern: "^[A-Z]{3}$")),
        .required("payableAfter", ContractSchemas.instant.nullable()),
    ])

    static let total = JSONSchema.object([
        .required("currency", .string(pattern: "^[A-Z]{3}$")), .required("credited", .integer(minimum: 0)),
        .required("reversed", .integer(minimum: 0)), .required("net", .integer()),
        .required("payableNow", .integer()), .required("held", .integer()),
    ])

    static let statement = OpenAPIOperation(
        id: "getAffiliateStatement",
        summary: "An affiliate's commission credits and reversals, with totals per currency",
        description: "Entries recorded in [from, to) (default: from the beginning until now), oldest first, each with "
            + "its event's orgSeq and hash (as in the audit export). Totals cover the whole range, not only the page: "
            + "net = credited - reversed; payableNow = the net of credits whose hold ended by asOf; held = net - "
            + "payableNow. Amounts are minor units, never converted.",
        tag: "server-to-server",
        parameters: [
            .path("affiliateId", ContractSchemas.uuid),
            .query("from", ContractFields.expiresAt, "RFC 3339; the range's start (inclusive)"),
            .query("to", ContractFields.expiresAt, "RFC 3339; the range's end (exclusive), default now"),
            .query("limit", .integer(minimum: 1, maximum: CommissionStatement.maxLimit),
                   "default \(CommissionStatementHandler.defaultLimit)"),
            .query("after", .integer(minimum: 1, maximum: CommissionStatementHandler.maximumAfter),
                   "a page's nextAfter"),
        ],
        responses: [
            .json(200, "one page of entries and the range's totals", .object([
                .required("affiliateId", ContractSchemas.uuid), .required("from", ContractSchemas.instant),
                .required("to", ContractSchemas.instant), .required("asOf", ContractSchemas.instant),
                .required("entries", .array(entry)), .required("totals", .array(total)),
                .required("nextAfter", JSONSchema.integer(minimum: 1).nullable()),
            ])),
            .error(400, "VALIDATION_AFFILIATE_ID_FORMAT, or from, to, limit or after refused (named)",
                   codes: [.affiliateIDFormat, .validationFailed]),
            .error(404, "the key's project has no affiliate with this id", codes: [.notFound]),
        ])
}
