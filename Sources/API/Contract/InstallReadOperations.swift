import Domain

/// The S2S reads of app installs (issue 20, docs/app-ingest.md "Reading installs").
enum InstallReadOperations {
    static let tiers = JSONSchema.object(InstallTier.allCases.map {
        .required($0.rawValue, .integer(minimum: 0))
    })

    static let installs = OpenAPIOperation(
        id: "listAppInstalls", summary: "An app's installs per UTC day and tier",
        description: "Installs whose first open (device time corrected by the server clock) is in [from, to); "
            + "to defaults to now, from to 30 days before to (from not before to: no days). Only days with installs "
            + "are listed, oldest first, each with every tier.",
        tag: "server-to-server",
        parameters: [
            .path("appId", ContractFields.appId),
            .query("from", ContractFields.expiresAt, "RFC 3339; the range's start (inclusive)"),
            .query("to", ContractFields.expiresAt, "RFC 3339; the range's end (exclusive), default now"),
        ],
        responses: [
            .json(200, "installs per day and tier", .object([
                .required("appId", ContractSchemas.uuid), .required("from", ContractSchemas.instant),
                .required("to", ContractSchemas.instant),
                .required("days", .array(.object([
                    .required("day", JSONSchema.string(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", lengths: 10...10)),
                    .required("tiers", tiers), .required("total", .integer(minimum: 1)),
                ]))),
            ])),
            .error(400, "VALIDATION_APP_ID_FORMAT, or from or to refused (named)",
                   codes: AppOperations.appIdCodes + [.validationFailed]),
            AppOperations.notFound,
        ])
}
