import Commands
import Domain

/// `GET /s2s/v1/reports/payments` (issue 16 §4, docs/audit.md "Reports").
enum ReportOperations {
    static let currency = JSONSchema.string(pattern: "^[A-Z]{3}$")
    /// Minor units of the row's currency, never converted; any size (a sum may exceed 64 bits).
    static let amount = JSONSchema.integer()
    static let count = JSONSchema.integer(minimum: 0)

    /// The payment figures every row has.
    static let figures: [JSONSchema.Property] = [
        .required("currency", currency),
        .required("paymentCount", count.described("PaymentRecorded events")),
        .required("gross", JSONSchema.integer(minimum: 0).described("the sum of their amounts")),
        .required("refundCount", count.described("PaymentRefunded events")),
        .required("refunds", JSONSchema.integer(minimum: 0)
            .described("the sum of the refunded payments' amounts")),
        .required("net", amount.described("gross - refunds")),
    ]

    /// The commission figures, as numbers or (in a product group) all null.
    static func commission(nullable: Bool) -> [JSONSchema.Property] {
        let number = nullable ? JSONSchema.null : count
        let sum = nullable ? JSONSchema.null : JSONSchema.integer(minimum: 0)
        return [
            .required("commissionCreditCount", number), .required("commissionCredited", sum),
            .required("commissionReversalCount", number), .required("commissionReversed", sum),
            .required("commissionNet", nullable ? JSONSchema.null : amount),
        ]
    }

    static let dayGroup = JSONSchema.object([
        .required("day", JSONSchema.string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$").described("UTC")),
        .required("projectId", .null), .required("productId", .null),
    ] + figures + commission(nullable: false))

    static let productGroup = JSONSchema.object([
        .required("day", .null), .required("projectId", ContractSchemas.uuid),
        .required("productId", JSONSchema.string()),
    ] + figures + commission(nullable: true))

    static let payments = OpenAPIOperation(
        id: "getPaymentReport",
        summary: "The organization's payments, refunds and affiliate commission per currency, at a signed head",
        description: "Computed over the organization's events up to its latest signed chain head (head, "
            + "throughOrgSeq), so every figure can be recomputed from an audit export that reaches that head; "
            + "without a signed head yet the report is empty (head null, throughOrgSeq 0). Events recorded in "
            + "[from, to) count (each bound open when absent; from at or after to: empty). A refund counts when it "
            + "was recorded, with its payment's amount, currency and product. Amounts are minor units, never "
            + "converted. groupBy=product leaves commission to the totals (a commission names no product).",
        tag: "server-to-server",
        parameters: [
            .query("from", ContractFields.expiresAt, "RFC 3339; the range's start (inclusive)"),
            .query("to", ContractFields.expiresAt, "RFC 3339; the range's end (exclusive)"),
            .query("groupBy", JSONSchema.enumeration(PaymentReport.Grouping.allCases.map(\.rawValue)),
                   "day (UTC, the default) or product"),
        ],
        responses: [
            .json(200, "the report", .object([
                .required("orgId", ContractSchemas.uuid),
                .required("from", AuditOperations.canonicalTime.nullable()),
                .required("to", AuditOperations.canonicalTime.nullable()),
                .required("groupBy", JSONSchema.enumeration(PaymentReport.Grouping.allCases.map(\.rawValue))),
                .required("head", AuditOperations.head.nullable()
                    .described("the signed chain head the report was computed at")),
                .required("throughOrgSeq", JSONSchema.integer(minimum: 0)
                    .described("the last org_seq counted: the head's, 0 without one")),
                .required("groups", .array(.oneOf([dayGroup, productGroup]))),
                .required("totals", .array(.object(figures + commission(nullable: false)))),
            ])),
            .error(400, "from, to or groupBy refused (named)", codes: [.validationFailed]),
        ])
}
