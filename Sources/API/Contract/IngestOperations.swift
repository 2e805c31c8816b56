import Domain

/// `/v1/m/*` with a publishable key (issue 20, docs/app-ingest.md): the SDKs' wire protocol. Errors are compact,
/// `{"ok":false,"code","detail"?,"retryAfter"?}`, never the S2S shape.
enum IngestOperations {
    static let publishableKey = OpenAPIParameter.path(
        "pk",
        JSONSchema.string(pattern: PublishableKey.pattern, lengths: PublishableKey.length...PublishableKey.length),
        "the app's publishable key (pk_3x_…)")

    /// A compact error answer: `code` is `code`, `detail` present for `invalid`, `retryAfter` for 429 and 503.
    static func error(_ status: Int, _ description: String, code: String, detail: Bool = false,
                      retryAfter: Bool = false) -> OpenAPIResponse {
        var properties: [JSONSchema.Property] = [.required("ok", .constant(false)),
                                                 .required("code", .constant(.string(code)))]
        if detail { properties.append(.required("detail", JSONSchema.string().described("the failing part"))) }
        if retryAfter { properties.append(.required("retryAfter", .integer(minimum: 0))) }
        var response = OpenAPIResponse.json(status, description,
                                            JSONSchema.object(properties).with("title", "IngestError"))
        if retryAfter {
            response.headers.append(("Retry-After", .integer(minimum: 0), "seconds to wait before trying again"))
        }
        return response
    }

    /// The 413 of a route taking `limit` bytes (also once inflated).
    static func tooLarge(_ limit: Int) -> OpenAPIResponse {
        error(413, limit == 0 ? "a body (this route takes none) (too_large)"
                : "a body over \(limit) bytes, on the wire or once inflated (too_large)", code: "too_large")
    }

    /// The compact answers every ingest route shares (besides its 413, `tooLarge`).
    static let common: [OpenAPIResponse] = [
        error(403, "the publishable key is unknown, rotated away or malformed (key)", code: "key"),
        error(429, "over the limit (rate_limited)", code: "rate_limited", retryAfter: true),
        error(500, "an unexpected failure; the log holds it under X-Request-Id", code: "internal"),
        error(503, "Postgres or Redis does not answer (unavailable)", code: "unavailable", retryAfter: true),
    ]

    private static let number = JSONSchema([.init("type", "number")])
    private static let strings = JSONSchema.array(.string())
    private static func toggle() -> JSONSchema { .object([.required("enabled", .boolean)]) }

    static let appConfig = JSONSchema.object([
        .required("v", .constant(.integer(AppConfig.version))),
        .required("rev", .integer(minimum: 1)),
        .required("app", .object([.required("id", ContractSchemas.uuid), .required("plat", ContractFields.appPlatform),
                                  .required("bid", .string())])),
        .required("enabled", .boolean),
        .required("flush", .object([.required("intervalMs", .integer(minimum: 0)),
                                    .required("events", .integer(minimum: 1))])),
        .required("session", .object([.required("timeoutMs", .integer(minimum: 0))])),
        .required("events", .object([.required("blocked", strings)])),
        .required("screens", .object([.required("exclude", strings)])),
        .required("identify", toggle()),
        .required("leads", toggle()),
        .required("recording", .object([
            .required("enabled", .boolean), .required("sampleRate", number), .required("excludeScreens", strings),
            .required("maskText", .boolean), .required("maskImages", .boolean),
            .required("unmaskAnchors", strings), .required("maskAnchors", strings),
            .required("screenshots", .boolean), .required("maxFps", .integer(minimum: 0)),
            .required("wifiOnly", .boolean), .required("health", .boolean),
        ])),
        .required("skan", .boolean),
        .required("links", .object([.required("hosts", strings), .required("pathPrefix", .string())])),
        .required("attestation", .boolean),
    ]).with("title", "AppConfig")

    static let config = OpenAPIOperation(
        id: "getAppConfig", summary: "The AppConfig an SDK runs with",
        description: "plat and bid must be the key's app's platform and bundle id / package name (403 app_mismatch "
            + "otherwise; the registered bundle id is never echoed). rev grows with every change of the app or its "
            + "project. 60 per minute per client IP.",
        tag: "app-ingest",
        parameters: [
            publishableKey,
            .query("plat", ContractFields.appPlatform, required: true, "the app's platform"),
            .query("bid", JSONSchema.string(lengths: 1...255), required: true,
                   "the iOS bundle id or Android package name"),
            .query("sdk", JSONSchema.string(lengths: 0...64), "the SDK's name and version (recorded later)"),
        ],
        responses: [
            OpenAPIResponse(status: 200, description: "the AppConfig",
                            content: ("application/json", appConfig),
                            headers: [("Cache-Control", .constant("private, max-age=300"), "cache for 5 minutes")]),
            error(400, "plat or bid is missing or malformed (invalid); detail names it", code: "invalid",
                  detail: true),
            error(403, "the key is unknown, rotated away or malformed (key), or plat/bid are not its app's "
                  + "(app_mismatch)", code: "key")
                .replacingSchema(.oneOf([errorSchema("key"), errorSchema("app_mismatch")])),
            tooLarge(0),
        ] + common.filter { $0.status != 403 })

    private static let id = JSONSchema.string(pattern: "^[A-Za-z0-9._:-]+$", lengths: 1...AppBatchBody.maxIdLength)
    private static let count = JSONSchema.integer(minimum: 0, maximum: 1_000_000_000)
    private static let millis = JSONSchema.integer(minimum: 0, maximum: 9_007_199_254_740_991)
        .described("Unix milliseconds of the device clock")

    /// The members every SDK body opens with: `v`, the publishable key `k`, and `app{plat,bid}` with `appMembers`.
    private static func envelope(app appMembers: [JSONSchema.Property] = []) -> [JSONSchema.Property] {
        [
            .required("v", .constant(1)),
            .required("k", JSONSchema.string(pattern: PublishableKey.pattern,
                                             lengths: PublishableKey.length...PublishableKey.length)),
            .required("app", .object([
                .required("plat", ContractFields.appPlatform),
                .required("bid", JSONSchema.string(pattern: "^[A-Za-z0-9._-]+$", lengths: 1...255)),
            ] + appMembers, closed: false)),
        ]
    }

    /// The consent members: `cm` and the four-purpose `cs`.
    private static let consent: [JSONSchema.Property] = [
        .required("cm", .enumeration(["always", "opt_in", "opt_out"])),
        .required("cs", JSONSchema.string(pattern: "^[gdpx]{4}$", lengths: 4...4)
            .described("analytics, attribution, recordings, ad measurement: g granted, d denied, p pending, "
                + "x unused")),
    ]

    static let batchBody = JSONSchema.object(envelope(app: [
        .optional("av", JSONSchema.string(pattern: "^[A-Za-z0-9._ ()+-]+$", lengths: 1...64)),
        .optional("osv", JSONSchema.string(pattern: "^[A-Za-z0-9._-]+$", lengths: 1...32)),
    ]) + [
        .required("inst", id), .required("sid", id), .required("n", count), .required("at", millis),
    ] + consent + [
        .optional("scr", JSONSchema.array(.object([
            .required("id", id), .required("seq", count), .required("t0", millis), .optional("t1", millis),
            .optional("nav", JSONSchema.string(pattern: "^[a-z_]+$", lengths: 1...32)),
            .optional("path", JSONSchema.string(pattern: "^[A-Za-z0-9._/-]+$", lengths: 1...256)),
            .optional("eng", count), .optional("taps", count), .optional("itaps", count),
        ])).with("minItems", 1).with("maxItems", .integer(AppBatchBody.maxScreens))),
        .optional("ev", JSONSchema.array(.object([
            .required("s", id), .required("n", count), .required("t", millis),
            .required("e", JSONSchema.string(pattern: "^[A-Za-z0-9._-]+$", lengths: 1...128)),
            .optional("p", JSONSchema.anyObject),
        ])).with("maxItems", .integer(AppBatchBody.maxEvents))),
    ], closed: false)

    static let batch = OpenAPIOperation(
        id: "sendAppBatch", summary: "An SDK's batch of sessions, screen views and events",
        description: "Stored only when cs grants analytics (else stored:false, reason consent); also not stored for a "
            + "paused app (paused) or a User-Agent that is not an SDK's (bot). Device times are corrected by "
            + "serverNow − at; a batch whose earliest time is more than 7 days old is 400 invalid. Content-Encoding: "
            + "gzip is inflated under the same 64 KiB. 60 per minute per install, 600 per minute per client IP.",
        tag: "app-ingest",
        parameters: [.header("User-Agent", JSONSchema.string(),
                             "X3Kit/<v> (iOS <os>) or X3Android/<v> (Android <os>)")],
        body: batchBody,
        responses: [
            .json(200, "taken: stored, or not and why", .object([
                .required("ok", .constant(true)), .required("stored", .boolean), .required("rev", .integer(minimum: 1)),
                .optional("reason", .enumeration(["consent", "quota", "paused", "bot"])),
            ])),
            error(400, "a part is missing or wrong (invalid); detail names it", code: "invalid", detail: true),
            error(403, "the key is unknown, rotated away or malformed (key), or app.plat/app.bid are not its app's "
                  + "(app_mismatch)", code: "key")
                .replacingSchema(.oneOf([errorSchema("key"), errorSchema("app_mismatch")])),
            tooLarge(65536),
        ] + common.filter { $0.status != 403 })

    static let leadBody = JSONSchema.object(envelope() + [
        .required("inst", id), .optional("sid", id),
        .required("form", JSONSchema.string(pattern: "^[A-Za-z0-9._:-]+$", lengths: 1...AppLeadBody.maxFormLength)),
        .required("email", JSONSchema.string(pattern: "^[a-z0-9._-]{1,64}@[a-z0-9-]{1,63}\\.[a-z]{2,10}$",
                                             lengths: 6...140)),
        .optional("firstName", JSONSchema.string(pattern: "^[A-Za-z ]+$",
                                                 lengths: 1...AppLeadBody.maxFirstNameLength)),
        .optional("message", JSONSchema.string(pattern: "^[A-Za-z0-9 .,!?]+$",
                                               lengths: 1...AppLeadBody.maxMessageLength / 4)),
        .optional("consent", .object([.optional("marketing", .boolean)], closed: false)),
        .optional("fillMs", count), .optional("eventId", id),
    ], closed: false)

    static let lead = OpenAPIOperation(
        id: "sendAppLead", summary: "A lead form from an app's SDK",
        description: "Taken only while the app's \"leads from the app\" setting is on (403 lead_disabled otherwise); "
            + "taken in every consent state. 3 per minute per project and client IP, and per project and install. A "
            + "double submit within 2 minutes (the same eventId, or the same install, form and contact) records one "
            + "lead and is answered the same. Contact data is sealed; the project reads leads at "
            + "GET /s2s/v1/apps/{appId}/leads. Content-Encoding: gzip is inflated under the same 8 KiB.",
        tag: "app-ingest",
        body: leadBody,
        responses: [
            .json(202, "taken (recorded once)", .object([.required("ok", .constant(true))])),
            error(400, "a part is missing or wrong (invalid); detail names it", code: "invalid", detail: true),
            error(403, "the key is unknown, rotated away or malformed (key), app.plat/app.bid are not its app's "
                  + "(app_mismatch), or the app takes no leads (lead_disabled)", code: "key")
                .replacingSchema(.oneOf([errorSchema("key"), errorSchema("app_mismatch"),
                                         errorSchema("lead_disabled")])),
            tooLarge(IngestLeadHandler.bodyLimit),
        ] + common.filter { $0.status != 403 })

    static let installBody = JSONSchema.object(envelope() + [
        .required("inst", id), .required("at", millis),
    ] + consent + [
        .optional("first", .oneOf([.boolean, millis])
            .described("the first open: true, or its Unix milliseconds (device clock)")),
        .optional("play", .object([
            .required("ref", JSONSchema.string(pattern: "^[A-Za-z0-9._~%&=+-]+$",
                                               lengths: 1...AppInstallBody.maxReferrerLength)
                .described("the raw Play install referrer (utm_*, gclid, x3c)")),
            .optional("clk", count), .optional("ins", count),
            .optional("ver", JSONSchema.string(pattern: "^[A-Za-z0-9._-]+$", lengths: 1...64)),
        ])),
        .optional("asa", .object([
            .required("token", JSONSchema.string(pattern: "^[A-Za-z0-9+/=]+$",
                                                 lengths: 1...AppInstallBody.maxAppleAdsTokenLength)
                .described("the AdServices attribution token")),
        ])),
        .optional("link", .oneOf([
            JSONSchema.string(pattern: "^[A-Za-z0-9:/._~%?&=#+-]+$", lengths: 1...AppInstallBody.maxLinkLength),
            .object([
                .optional("s", JSONSchema.string(pattern: "^[A-Za-z0-9:/._~%?&=#+-]+$", lengths: 1...1024)),
                .optional("t", millis), .optional("tok", id), .optional("code", id),
                .optional("attr", JSONSchema.string(pattern: "^[A-Za-z0-9._-]+$", lengths: 1...64)),
            ]),
        ]).described("the deep link of the first open")),
    ], closed: false)

    static let install = OpenAPIOperation(
        id: "sendAppInstall", summary: "An install's first open and its sources; answers its tier",
        description: "Once per install: a re-sent install answers the tier recorded first. Precedence: unknown "
            + "(cs does not grant attribution: sources unused), referrer (a Play referrer with x3c, gclid or a "
            + "non-organic UTM), apple_ads, pending (an Apple Ads token not resolved yet), link, identity, organic. "
            + "Content-Encoding: gzip is inflated under the same 16 KiB.",
        tag: "app-ingest",
        parameters: [.header("User-Agent", JSONSchema.string(),
                             "X3Kit/<v> (iOS <os>) or X3Android/<v> (Android <os>)")],
        body: installBody,
        responses: [
            .json(200, "the install's tier", .object([
                .required("ok", .constant(true)),
                .required("tier", .enumeration(InstallTier.allCases.map(\.rawValue))),
            ])),
            error(400, "a part is missing or wrong (invalid); detail names it", code: "invalid", detail: true),
            error(403, "the key is unknown, rotated away or malformed (key), app.plat/app.bid are not its app's "
                  + "(app_mismatch), or the app is paused (disabled)", code: "key")
                .replacingSchema(.oneOf([errorSchema("key"), errorSchema("app_mismatch"), errorSchema("disabled")])),
            tooLarge(16384),
        ] + common.filter { $0.status != 403 })

    static let eraseBody = JSONSchema.object(envelope() + [
        .required("inst", id),
        .required("secret", JSONSchema.string(pattern: "^[0-9A-Fa-f]{64}$", lengths: 64...64)
            .described("the install's erase secret; batches carry dp = SHA-256 of its text in lowercase hex")),
    ], closed: false)

    static let erase = OpenAPIOperation(
        id: "sendAppErase", summary: "A device erases its install",
        description: "When SHA-256 of secret is the dp the install's batches carried (the first one kept), the "
            + "install's sessions, screen views, events, recordings and account tokens are deleted, its "
            + "personal-data key is destroyed (its leads' contact data reads as erased) and AppInstallErased is "
            + "recorded. The answer is the same whether or not anything was erased. Taken in every consent state. "
            + "10 per minute per client IP. Content-Encoding: gzip is inflated under the same 1 KiB.",
        tag: "app-ingest",
        body: eraseBody,
        responses: [
            .json(202, "taken", .object([.required("ok", .constant(true))])),
            error(400, "a part is missing or wrong (invalid); detail names it", code: "invalid", detail: true),
            error(403, "the key is unknown, rotated away or malformed (key), or app.plat/app.bid are not its app's "
                  + "(app_mismatch)", code: "key")
                .replacingSchema(.oneOf([errorSchema("key"), errorSchema("app_mismatch")])),
            tooLarge(IngestEraseHandler.bodyLimit),
        ] + common.filter { $0.status != 403 })

    private static func errorSchema(_ code: String) -> JSONSchema {
        .object([.required("ok", .constant(false)), .required("code", .constant(.string(code)))])
    }

    /// Links from an answer carrying an app (`publishableKey`, `platform`, `bundleId` at the top) to its config.
    static let links: [OpenAPILink] = [
        OpenAPILink(name: "appConfig", operationId: "getAppConfig",
                    parameters: [("pk", "$response.body#/publishableKey"), ("plat", "$response.body#/platform"),
                                 ("bid", "$response.body#/bundleId")],
                    description: "the app's SDK fetches its AppConfig"),
        OpenAPILink(name: "appBatch", operationId: "sendAppBatch",
                    requestBody: .object([
                        ("v", 1), ("k", "$response.body#/publishableKey"),
                        ("app", .object([("plat", "$response.body#/platform"), ("bid", "$response.body#/bundleId")])),
                        ("inst", "install-1"), ("sid", "session-1"), ("n", 1), ("at", 1_800_000_000_000),
                        ("cm", "opt_in"), ("cs", "gggg"),
                    ]),
                    description: "the app's SDK sends a batch"),
        OpenAPILink(name: "appLead", operationId: "sendAppLead",
                    requestBody: .object([
                        ("v", 1), ("k", "$response.body#/publishableKey"),
                        ("app", .object([("plat", "$response.body#/platform"), ("bid", "$response.body#/bundleId")])),
                        ("inst", "install-1"), ("form", "contact"), ("email", "reader@example.com"),
                    ]),
                    description: "the app's SDK sends a lead form"),
        OpenAPILink(name: "appInstall", operationId: "sendAppInstall",
                    requestBody: .object([
                        ("v", 1), ("k", "$response.body#/publishableKey"),
                        ("app", .object([("plat", "$response.body#/platform"), ("bid", "$response.body#/bundleId")])),
                        ("inst", "install-1"), ("at", 1_800_000_000_000), ("cm", "opt_in"), ("cs", "gggg"),
                        ("first", true), ("play", .object([("ref", "utm_source=newsletter&utm_medium=email")])),
                    ]),
                    description: "the app's SDK reports its install"),
        OpenAPILink(name: "appErase", operationId: "sendAppErase",
                    requestBody: .object([
                        ("v", 1), ("k", "$response.body#/publishableKey"),
                        ("app", .object([("plat", "$response.body#/platform"), ("bid", "$response.body#/bundleId")])),
                        ("inst", "install-1"),
                        ("secret", "5f2b8c1e9d4a7f3b6e0c2d8a1f5b9e3c7d4a0f6b2e8c5d1a9f3b7e0c4d2a8f6b"),
                    ]),
                    description: "the app's SDK erases its install"),
        OpenAPILink(name: "eraseAppUsers", operationId: "eraseAppUsers",
                    parameters: [("project", "$response.body#/projectId")],
                    requestBody: .object([("userId", "user-1")]),
                    description: "the project's server erases a user's installs of its apps"),
    ]
}

extension OpenAPIResponse {
    /// This answer with another body schema.
    func replacingSchema(_ schema: JSONSchema) -> OpenAPIResponse {
        var copy = self
        copy.content = content.map { ($0.mediaType, schema) }
        return copy
    }
}
