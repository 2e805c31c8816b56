import Domain

/// The answers' schemas, as the handlers encode them; `components` names the shared ones.
enum ContractSchemas {
    static let uuid = JSONSchema.string(pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
                                        lengths: 36...36, format: "uuid")
    /// An instant as the API writes it: `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC.
    static let instant = JSONSchema.string(
        pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$", lengths: 24...24,
        format: "date-time")
    /// A setting read back: stored when it passed the rule of its day, so only its type is promised.
    static let storedText = JSONSchema.string().nullable()

    /// The schemas `#/components/schemas` holds.
    static let components: [(String, JSONSchema)] = [
        ("Guid", ContractFields.guidComponent),
        ("Error", JSONSchema.object([
            .required("statusCode", .integer(minimum: 400, maximum: 599)),
            .optional("code", JSONSchema.string(pattern: "^[A-Z][A-Z0-9_]*$")
                .described("a stable machine code to branch on; absent on the public 404s")),
            .required("message", JSONSchema.string().described("for people; never echoes a value")),
        ]).described("Every JSON error. Each answer below names its statusCode and the codes it can carry.")),
        ("Project", project),
        ("Entitlements", entitlements),
    ]

    static let project = JSONSchema.object([
        .required("androidPackage", storedText), .required("emailVerification", ContractFields.emailVerification),
        .required("fingerprint", .boolean), .required("iosBundleId", storedText),
        .required("landingUrl", storedText.described("where affiliate links lead; null: to paywallUrl")),
        .required("name", .string()),
        .required("orgId", uuid), .required("paywallUrl", storedText), .required("projectId", uuid),
        .required("returnScheme", storedText), .required("tracker", ContractFields.tracker),
        .required("trackerLink", storedText),
    ])

    static let entitlements = JSONSchema.object([
        .required("active", JSONSchema.boolean.described("true when any entitlement is active")),
        .required("entitlements", .array(.object([
            .required("entitlement", ContractFields.catalogId),
            .required("expiresAt", instant.nullable()),
            .required("paymentId", ContractFields.paymentId),
            .required("productId", ContractFields.catalogId),
            .required("status", .enumeration(["active", "expired", "refunded"])),
        ]))),
        .required("guid", ContractFields.guid),
    ])

    static let user = JSONSchema.object([
        .required("guid", ContractFields.guid),
        .required("paywallUrl", JSONSchema.string().nullable()
            .described("the project's paywall URL with pass, email and origin=app; null without one")),
        .required("user_id", ContractFields.guid),
    ])

    static let profile = JSONSchema.object([
        .required("createdAt", instant), .required("emailVerified", .boolean),
        .required("externalId", JSONSchema.string().nullable()), .required("guid", ContractFields.guid),
        .required("projectId", uuid),
    ])

    static let payment = JSONSchema.object([
        .required("guid", ContractFields.guid),
        .required("handoff", .object([
            .required("code", ContractFields.code), .required("expiresAt", instant),
            .required("pageToken", ContractFields.pageToken),
            .required("postPaymentUrl", JSONSchema.string(format: "uri")
                .described("PUBLIC_BASE_URL/done/<pageToken>: the post-payment page")),
            .required("returnLink", JSONSchema.string().nullable()),
            .required("trackerUrl", JSONSchema.string().nullable()),
        ])),
        .required("install", .object([
            .required("expiresAt", instant), .required("playStoreUrl", JSONSchema.string().nullable()),
            .required("token", ContractFields.code), .required("trackerUrl", JSONSchema.string().nullable()),
        ])),
        .required("paymentId", ContractFields.paymentId),
    ])

    static let refund = JSONSchema.object([
        .required("entitlement", ContractFields.catalogId), .required("paymentId", ContractFields.paymentId),
        .required("refundedAt", instant), .required("status", .constant("refunded")),
    ])

    static let eventsPage = JSONSchema.object([
        .required("events", .array(JSONSchema.object([
            .required("data", .anyObject), .required("event_id", uuid), .required("event_type", .string()),
            .required("hash", .string(pattern: "^[0-9a-f]{64}$")), .required("metadata", .anyObject),
            .required("org_id", uuid), .required("org_seq", .integer(minimum: 1)),
            .required("prev_hash", .string(pattern: "^[0-9a-f]{64}$")), .required("recorded_at", .string()),
            .required("schema_version", .integer(minimum: 1)), .required("stream_id", .string()),
            .required("stream_version", .integer(minimum: 0)),
        ]))),
        .required("nextAfter", JSONSchema.integer(minimum: 0).described("pass as after for the next page")),
    ])

    /// `{"success":true,"data":…}`, the public answers' wrapper.
    static func success(_ data: JSONSchema) -> JSONSchema {
        .object([.required("data", data), .required("success", .constant(true))])
    }
}
