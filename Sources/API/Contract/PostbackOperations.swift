import Domain

/// Apple's postback copies (issue 21, docs/postbacks.md): `POST /v1/m/postbacks/{kind}/{endpoint}` (compact ingest
/// errors) and the S2S aggregate read.
enum PostbackOperations {
    private static let digits = JSONSchema.string(pattern: "^[0-9]{2,4}$", lengths: 2...4)
    private static let text = JSONSchema.string(pattern: "^[^\\u0000-\\u001f\\u007f]+$", lengths: 1...255)
    private static let transactionId = JSONSchema.string(pattern: "^[^\\u0000-\\u001f\\u007f]+$", lengths: 1...128)
    private static let storeId = JSONSchema.integer(minimum: 1)
    private static let conversion: [JSONSchema.Property] = [
        .optional("conversion-value", .integer(minimum: 0, maximum: 63)),
        .optional("coarse-conversion-value", .enumeration(["low", "medium", "high"])),
    ]

    /// SKAdNetwork 3.0 and 4.0 (Apple's "Identifying the parameters in install-validation postbacks").
    static let skanBody: JSONSchema = {
        let common: [JSONSchema.Property] = [
            .required("ad-network-id", text), .required("app-id", storeId),
            .required("transaction-id", transactionId), .required("redownload", .boolean),
            .required("fidelity-type", .integer(minimum: 0, maximum: 1)), .required("did-win", .boolean),
            .required("attribution-signature", JSONSchema.string(pattern: "^[A-Za-z0-9+/]+={0,2}$", lengths: 12...172)
                .described("base64 of a DER ECDSA signature")),
            .optional("source-app-id", .integer(minimum: 0)),
        ] + conversion
        return .oneOf([
            .object([.required("version", .constant("3.0")),
                     .required("campaign-id", .integer(minimum: 0, maximum: Int(Int32.max)))] + common, closed: false),
            .object([.required("version", .constant("4.0")), .required("source-identifier", digits),
                     .required("postback-sequence-index", .integer(minimum: 0, maximum: 2)),
                     .optional("source-domain", JSONSchema.string(lengths: 1...253))] + common, closed: false),
        ]).with("title", "SKAdNetworkPostback")
    }()

    /// AdAttributionKit (Apple's "Identifying the parameters in a postback").
    static let aakBody = JSONSchema.object([
        .required("jws-string", JSONSchema.string(pattern: "^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$",
                                                  lengths: 5...AAKPostback.maxJWSLength)
            .described("compact JWS, ES256, kid naming Apple's key")),
        .optional("ad-interaction-type", .enumeration(["view", "click"])),
        .optional("country-code", JSONSchema.string(lengths: 1...8)),
    ] + conversion, closed: false).with("title", "AdAttributionKitPostback")

    /// The copy route, without and with its trailing slash (two paths, the same contract).
    static func copy(trailingSlash: Bool) -> OpenAPIOperation {
        OpenAPIOperation(
            id: trailingSlash ? "sendPostbackCopyWithSlash" : "sendPostbackCopy",
            summary: "A copy of an Apple postback, through the organization's first-party proxy"
                + (trailingSlash ? " (trailing slash, served as is)" : ""),
            description: "The proxy forwards /.well-known/skadnetwork/report-attribution/ (kind skan: SKAdNetwork "
                + "3.0 or 4.0) or /.well-known/appattribution/report-attribution/ (kind aak: AdAttributionKit) with "
                + "its proxy key. The App Store id (app-id, advertised-item-identifier) must be an iOS app of the "
                + "key's organization. Signatures are verified with Apple's published keys; a copy that fails is "
                + "kept (at most 100 per project and hour) but never counted, and a signed copy replaces it. Every "
                + "copy taken is 200, stored or not.",
            tag: "app-ingest",
            parameters: [
                .path("kind", .enumeration(PostbackKind.allCases.map(\.rawValue)), "skan or aak"),
                .path("endpoint", .enumeration([PostbackKind.endpoint]), "the path Apple posts to"),
                .header(ProxyKey.header, JSONSchema.string(pattern: "^px_[A-Za-z0-9_-]{32}$",
                                                           lengths: ProxyKey.length...ProxyKey.length),
                        "the organization's proxy key (handoff admin link proxy-key); required"),
            ],
            body: .anyOf([skanBody, aakBody]),
            responses: [
                .json(200, "taken (stored, a duplicate, or a failed signature)", .object([
                    .required("ok", .constant(true)),
                ])),
                IngestOperations.error(400, "the kind, endpoint or a member is wrong (invalid); detail names it",
                                       code: "invalid", detail: true),
                IngestOperations.error(403, "no or an unknown proxy key (key), or the App Store id is not an iOS app "
                                       + "of its organization (app_mismatch)", code: "key")
                    .replacingSchema(.oneOf(["key", "app_mismatch"].map(errorSchema))),
                IngestOperations.tooLarge(16384),
            ] + IngestOperations.common.filter { $0.status != 403 && $0.status != 429 })
    }

    private static func errorSchema(_ code: String) -> JSONSchema {
        .object([.required("ok", .constant(false)), .required("code", .constant(.string(code)))])
    }

    static let list = OpenAPIOperation(
        id: "listAppPostbacks", summary: "An app's Apple postbacks per ad network and source identifier",
        description: "Postbacks received in [from, to); to defaults to now, from to 30 days before to. postbacks "
            + "counts those signed with Apple's production key (won: did-win true); development counts "
            + "AdAttributionKit postbacks signed with a development key. Failed signatures are only counted, never "
            + "grouped. SKAdNetwork 3.0's campaign-id is the sourceIdentifier.",
        tag: "server-to-server",
        parameters: [
            .path("appId", ContractFields.appId),
            .query("from", ContractFields.expiresAt, "RFC 3339; the range's start (inclusive)"),
            .query("to", ContractFields.expiresAt, "RFC 3339; the range's end (exclusive), default now"),
        ],
        responses: [
            .json(200, "the groups and the failed count", .object([
                .required("appId", ContractSchemas.uuid), .required("from", ContractSchemas.instant),
                .required("to", ContractSchemas.instant),
                .required("groups", .array(.object([
                    .required("kind", .enumeration(PostbackKind.allCases.map(\.rawValue))),
                    .required("adNetworkId", .string()),
                    .required("sourceIdentifier", JSONSchema.string(pattern: "^[0-9]+$", lengths: 1...10)),
                    .required("postbacks", .integer(minimum: 0)), .required("won", .integer(minimum: 0)),
                    .required("development", .integer(minimum: 0)),
                ]))),
                .required("failed", .integer(minimum: 0)),
            ])),
            .error(400, "VALIDATION_APP_ID_FORMAT, or from or to refused (named)",
                   codes: AppOperations.appIdCodes + [.validationFailed]),
            AppOperations.notFound,
        ])

    /// From an answer carrying an app: the proxy forwards a postback copy (with and without the trailing slash), and
    /// the project reads the app's postbacks.
    static let links: [OpenAPILink] = [
        OpenAPILink(name: "postbackCopy", operationId: "sendPostbackCopy",
                    parameters: [("kind", "skan"), ("endpoint", PostbackKind.endpoint)],
                    description: "the proxy forwards a SKAdNetwork postback copy"),
        OpenAPILink(name: "postbackCopyWithSlash", operationId: "sendPostbackCopyWithSlash",
                    parameters: [("kind", "aak"), ("endpoint", PostbackKind.endpoint)],
                    description: "the proxy forwards an AdAttributionKit postback copy, trailing slash kept"),
        OpenAPILink(name: "postbacks", operationId: "listAppPostbacks",
                    parameters: [("appId", "$response.body#/appId")],
                    description: "the app's postbacks per ad network and source identifier"),
    ]
}
