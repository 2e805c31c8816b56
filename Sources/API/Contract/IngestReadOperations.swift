import Domain

/// The S2S reads of app sessions and conversions (issue 20, docs/app-ingest.md "Reading sessions", "Conversions").
enum IngestReadOperations {
    private static let day = JSONSchema.string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", lengths: 10...10)
    private static let parameters: [OpenAPIParameter] = [
        .path("appId", ContractFields.appId),
        .query("from", ContractFields.expiresAt, "RFC 3339; the range's start (inclusive)"),
        .query("to", ContractFields.expiresAt, "RFC 3339; the range's end (exclusive), default now"),
    ]
    private static let errors: [OpenAPIResponse] = [
        .error(400, "VALIDATION_APP_ID_FORMAT, or from or to refused (named)",
               codes: AppOperations.appIdCodes + [.validationFailed]),
        AppOperations.notFound,
    ]
    /// Minor units per ISO 4217 code: `{"EUR":499}`.
    private static let amounts = JSONSchema([
        .init("type", "object"), .init("propertyNames", JSONSchema.string(pattern: "^[A-Z]{3}$").json),
        .init("additionalProperties", JSONSchema.integer(minimum: 0).json),
    ])

    static let conversions = OpenAPIOperation(
        id: "listAppConversions", summary: "An app's confirmed conversions per UTC day and install tier",
        description: "A purchase event of a batch is a hint; it counts once a verified store notification, "
            + "RevenueCat or POST /s2s/v1/payments confirms the same order id (in either order). Conversions whose "
            + "purchase (device time corrected by the server clock) is in [from, to); to defaults to now, from to "
            + "30 days before to. Per day: every install tier, the total, and the confirmed amounts in minor units "
            + "per currency.",
        tag: "server-to-server",
        parameters: parameters,
        responses: [
            .json(200, "confirmed conversions per day and install tier", .object([
                .required("appId", ContractSchemas.uuid), .required("from", ContractSchemas.instant),
                .required("to", ContractSchemas.instant),
                .required("days", .array(.object([
                    .required("day", day), .required("tiers", InstallReadOperations.tiers),
                    .required("total", .integer(minimum: 1)), .required("amounts", amounts),
                ]))),
            ])),
        ] + errors)

    static let sessions = OpenAPIOperation(
        id: "listAppSessions", summary: "An app's sessions, installs, screen views and events per UTC day",
        description: "For each UTC day the range [from, to) touches (to defaults to now, from to 30 days before "
            + "to; from not before to: no days) and that has stored rows: sessions (one per session and day), the "
            + "installs behind them, screen views and events. Oldest first.",
        tag: "server-to-server",
        parameters: parameters,
        responses: [
            .json(200, "sessions, installs, screen views and events per day", .object([
                .required("appId", ContractSchemas.uuid), .required("from", ContractSchemas.instant),
                .required("to", ContractSchemas.instant),
                .required("days", .array(.object([
                    .required("day", day), .required("sessions", .integer(minimum: 0)),
                    .required("installs", .integer(minimum: 0)), .required("screens", .integer(minimum: 0)),
                    .required("events", .integer(minimum: 0)),
                ]))),
            ])),
        ] + errors)

    static let export = OpenAPIOperation(
        id: "exportAppDay", summary: "An app's raw ingest rows of one UTC day as JSON Lines",
        description: "Streamed (chunked) as application/x-ndjson: one JSON object per line, first the day's sessions "
            + "(type session), then screen views (type screen), then events (type event, props as sent). The install "
            + "is its keyed hash only. A day with no rows, or not in the calendar, is an empty body. Rows of days "
            + "older than the retention (INGEST_RETENTION_DAYS) are gone.",
        tag: "server-to-server",
        parameters: [
            .path("appId", ContractFields.appId),
            .query("day", JSONSchema.string(pattern: AppExportHandler.dayPattern, lengths: 10...10), required: true,
                   "the UTC day, YYYY-MM-DD"),
        ],
        responses: [
            OpenAPIResponse(status: 200, description: "the day's rows, one JSON object per line",
                            content: ("application/x-ndjson", .string())),
        ] + errors)
}
