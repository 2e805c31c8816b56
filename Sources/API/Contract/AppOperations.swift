import Commands
import Domain

/// `/s2s/v1/apps…` and `POST /public/app-account-token` (issue 14).
enum AppOperations {
    /// `{"set":true}` or null: a write-only value is there or not.
    static let setMarker = JSONSchema.object([.required("set", .constant(true))]).nullable()

    static let destination = JSONSchema.object([
        .required("destinationId", ContractSchemas.uuid), .required("isDefault", .boolean),
        .required("scheme", ContractFields.destinationScheme), .required("secret", setMarker),
        .required("url", JSONSchema.string()),
    ])

    static let appProperties: [JSONSchema.Property] = [
        .required("appId", ContractSchemas.uuid), .required("projectId", ContractSchemas.uuid),
        .required("platform", ContractFields.appPlatform), .required("bundleId", JSONSchema.string()),
        .required("appAppleId", JSONSchema.integer(minimum: 1).nullable()),
        .required("publishableKey", JSONSchema.string(pattern: PublishableKey.pattern).nullable()
            .described("the key the app's SDK sends on /v1/m/* (public by design)")),
        .required("forwardUrl", JSONSchema.string().nullable()
            .described("the default x3 destination's URL")),
        .required("destinations", .array(destination)),
        .required("ingest", IngestSettingsSchemas.answer.nullable()),
    ] + AppSecretKind.allCases.map { .required($0.rawValue, setMarker) }

    static let app = JSONSchema.object(appProperties)

    static let appWithToken = JSONSchema.object(appProperties + [
        .required("storeToken", JSONSchema.string(pattern: StoreToken.pattern, lengths: 32...32)
            .described("shown only now; the store URLs' last segment")),
        .required("storeUrls", .object([
            .required("apple", JSONSchema.string(format: "uri")),
            .required("google", JSONSchema.string(format: "uri")),
            .required("revenuecat", JSONSchema.string(format: "uri")),
        ])),
    ])

    /// Codes of a malformed `appId` in the path.
    static let appIdCodes: [MachineCode] = [.appIDFormat]
    static let settingCodes: [MachineCode] = ContractFields.bodyCodes + [
        .bundleIDFormat, .appAppleIDFormat, .forwardURLFormat, .secretFormat, .emailFormat, .serviceAccountKeyFormat,
    ]
    static let notFound = OpenAPIResponse.error(404, "the key's project has no app with this id", codes: [.notFound])

    /// Links from an answer carrying an app (`appId` at the top) to what a tenant does with it next. The update
    /// sends the app's own bundle id, whose rule depends on the platform.
    static func appLinks(appId: String = "$response.body#/appId") -> [OpenAPILink] {
        [
            OpenAPILink(name: "app", operationId: "getApp", parameters: [("appId", appId)], description: "read it"),
            OpenAPILink(name: "update", operationId: "updateApp", parameters: [("appId", appId)],
                        requestBody: ["bundleId": "$response.body#/bundleId"], description: "change it"),
            OpenAPILink(name: "rotate", operationId: "rotateStoreToken", parameters: [("appId", appId)],
                        description: "rotate its store token"),
            OpenAPILink(name: "destination", operationId: "addAppDestination", parameters: [("appId", appId)],
                        requestBody: ["scheme": "x3", "url": "https://hooks.example.com/store"],
                        description: "forward its notifications to one more place"),
            OpenAPILink(name: "apps", operationId: "listApps", description: "all apps of the project"),
            OpenAPILink(name: "deliveries", operationId: "listAppDeliveries", parameters: [("appId", appId)],
                        description: "its forward attempts"),
            OpenAPILink(name: "leads", operationId: "listAppLeads", parameters: [("appId", appId)],
                        description: "the lead forms its SDK sent"),
            OpenAPILink(name: "installs", operationId: "listAppInstalls", parameters: [("appId", appId)],
                        description: "its installs per day and tier"),
            OpenAPILink(name: "conversions", operationId: "listAppConversions", parameters: [("appId", appId)],
                        description: "its confirmed conversions per day and install tier"),
            OpenAPILink(name: "sessions", operationId: "listAppSessions", parameters: [("appId", appId)],
                        description: "its sessions, screen views and events per day"),
            OpenAPILink(name: "export", operationId: "exportAppDay", parameters: [("appId", appId)],
                        description: "one day's raw ingest rows as JSON Lines"),
        ]
    }

    /// Links from the project answer (`projectId` at the top) to the app routes.
    static let projectLinks: [OpenAPILink] = [
        OpenAPILink(name: "createApp", operationId: "createApp", description: "add an app to this project"),
        OpenAPILink(name: "apps", operationId: "listApps", description: "the project's apps"),
        OpenAPILink(name: "appAccountToken", operationId: "getAppAccountToken",
                    requestBody: ["projectId": "$response.body#/projectId"],
                    description: "an app asks for its buyer's appAccountToken"),
    ]

    static let create = OpenAPIOperation(
        id: "createApp", summary: "Create an app in the key's project; answers its store token and URLs (once)",
        description: "bundleId is an iOS bundle id (platform ios) or an Android package name (android). forwardUrl "
            + "becomes the app's default x3 destination. Secrets are write-only: answered as {\"set\":true}. null "
            + "counts as absent.",
        tag: "server-to-server",
        body: .oneOf([
            .object(optionalSettings + [.required("platform", .constant("ios")),
                                        .required("bundleId", ContractFields.iosBundleId)]),
            .object(optionalSettings + [.required("platform", .constant("android")),
                                        .required("bundleId", ContractFields.androidPackage)]),
        ]),
        responses: [
            .json(201, "the app, with its store token and store URLs", appWithToken,
                  links: appLinks() + StoreOperations.links + SurfaceOperations.links + IngestOperations.links
                      + RecordingOperations.links + PostbackOperations.links),
            .error(400, "a field is refused; the message names it", codes: settingCodes + [.platformFormat]),
        ])

    /// The settings a body may carry besides platform and bundle id, each nullable.
    static let optionalSettings: [JSONSchema.Property] = [
        .optional("appAppleId", ContractFields.appAppleId.nullable()),
        .optional("forwardUrl", ContractFields.forwardUrl.nullable()),
        .optional("revenuecatSecret", ContractFields.revenuecatSecret.nullable()),
        .optional("googlePushAudience", ContractFields.googlePushAudience.nullable()),
        .optional("googlePushServiceAccount", ContractFields.googlePushServiceAccount.nullable()),
        .optional("googleServiceAccountKey", ContractFields.serviceAccountKey.nullable()),
        .optional("metaInstallReferrerKey", ContractFields.metaInstallReferrerKey.nullable()),
    ]

    static let list = OpenAPIOperation(
        id: "listApps", summary: "The key's project's apps, oldest first", tag: "server-to-server",
        responses: [.json(200, "the apps", .object([.required("apps", .array(app))]))])

    static let show = OpenAPIOperation(
        id: "getApp", summary: "An app of the key's project; secrets as {\"set\":true}", tag: "server-to-server",
        parameters: [.path("appId", ContractFields.appId)],
        responses: [
            .json(200, "the app", app, links: Array(appLinks().dropFirst()) + IngestOperations.links
                      + RecordingOperations.links + PostbackOperations.links),
            .error(400, "VALIDATION_APP_ID_FORMAT", codes: appIdCodes),
            notFound,
        ])

    static let update = OpenAPIOperation(
        id: "updateApp", summary: "Change an app of the key's project",
        description: "An absent field is kept; null clears an optional one. The platform never changes; bundleId "
            + "must follow the app's platform's rule (409 APP_PLATFORM_CONFLICT for one of the other platform's). "
            + "A new forwardUrl "
            + "replaces the default x3 destination; null removes it. ingest changes the AppConfig settings it names "
            + "(the same rules as handoff admin app ingest-settings); the revision rev grows with every change.",
        tag: "server-to-server", parameters: [.path("appId", ContractFields.appId)],
        body: .object([.optional("bundleId", .anyOf([ContractFields.iosBundleId, ContractFields.androidPackage]))]
            + optionalSettings + [.optional("ingest", IngestSettingsSchemas.change)]),
        responses: [
            .json(200, "the app as it now is", app, links: [appLinks()[0]]),
            .error(400, "a field is refused; the message names it", codes: settingCodes + appIdCodes),
            notFound,
            .error(409, "APP_PLATFORM_CONFLICT: a bundle id of the other platform", codes: [.appPlatformConflict]),
        ])

    static let rotateToken = OpenAPIOperation(
        id: "rotateStoreToken", summary: "Rotate an app's store token; the old one stops at once",
        description: "The old token's URLs answer 404 from now on; forwards queued before still sign with the token "
            + "their notification arrived under. Any body is ignored.",
        tag: "server-to-server", parameters: [.path("appId", ContractFields.appId)],
        responses: [
            .json(200, "the app, with its new store token and store URLs", appWithToken,
                  links: [appLinks()[0]] + StoreOperations.links),
            .error(400, "VALIDATION_APP_ID_FORMAT", codes: appIdCodes),
            notFound,
        ])

    static let addDestination = OpenAPIOperation(
        id: "addAppDestination", summary: "Forward an app's notifications to one more destination",
        description: "x3: every verified notification, byte for byte, signed with the secret (or the store token). "
            + "attribloom: App Store notifications only, for an ios app (409 APP_PLATFORM_CONFLICT on an android "
            + "app), with a secret. null counts as absent.",
        tag: "server-to-server", parameters: [.path("appId", ContractFields.appId)],
        body: .oneOf([
            .object([.required("scheme", .constant("x3")), .required("url", ContractFields.forwardUrl),
                     .optional("secret", ContractFields.destinationSecret.nullable())]),
            .object([.required("scheme", .constant("attribloom")), .required("url", ContractFields.forwardUrl),
                     .required("secret", ContractFields.destinationSecret)]),
        ]),
        responses: [
            .json(201, "the destination", destination, links: [
                OpenAPILink(name: "remove", operationId: "removeAppDestination",
                            parameters: [("appId", "$request.path.appId"),
                                         ("destinationId", "$response.body#/destinationId")],
                            description: "remove it again"),
                OpenAPILink(name: "app", operationId: "getApp", parameters: [("appId", "$request.path.appId")],
                            description: "the app with its destinations"),
            ]),
            .error(400, "a field is refused; the message names it", codes: ContractFields.bodyCodes + appIdCodes
                + [.destinationSchemeFormat, .forwardURLFormat, .secretFormat]),
            notFound,
            .error(409, "APP_PLATFORM_CONFLICT: attribloom for an android app; APP_DESTINATION_LIMIT: the app has "
                   + "\(DestinationAddition.maxDestinations) destinations",
                   codes: [.appPlatformConflict, .destinationLimit]),
        ])

    static let removeDestination = OpenAPIOperation(
        id: "removeAppDestination", summary: "Stop forwarding to a destination (the forward URL too)",
        tag: "server-to-server",
        parameters: [.path("appId", ContractFields.appId), .path("destinationId", ContractFields.destinationId)],
        responses: [
            .empty(204, "removed"),
            .error(400, "a malformed id", codes: appIdCodes + [.destinationIDFormat]),
            .error(404, "no such app in the key's project, or it has no such destination (any more)",
                   codes: [.notFound]),
        ])

    static let appAccountToken = OpenAPIOperation(
        id: "getAppAccountToken", summary: "A buyer's App Store appAccountToken: the same UUID for the same guid",
        description: "Minted once per organization and guid (random, so it reveals nothing) and kept; the app passes "
            + "it to StoreKit, and a transaction carrying it is this buyer's. A guid no organization has seen yet "
            + "is taken; a guid of another organization is refused.",
        tag: "public",
        body: .object([.required("projectId", ContractFields.projectId), .required("guid", ContractFields.guid)]),
        responses: [
            .json(200, "the token", ContractSchemas.success(.object([
                .required("appAccountToken", ContractSchemas.uuid),
            ]))),
            .error(400, "a field is refused (named), or VISITOR_ID_FOREIGN_PROJECT (nothing recorded)",
                   codes: ContractFields.bodyCodes + [.projectIDFormat] + BuyerOperations.guidCodes),
            .error(404, "no project has this projectId", codes: []),
            PublicOperations.limited(Environment.defaultAppAccountTokenLimit),
        ])
}

extension AppOperations {
    static let delivery = JSONSchema.object([
        .required("eventId", ContractSchemas.uuid), .required("sequence", .integer(minimum: 1)),
        .required("appId", ContractSchemas.uuid), .required("notificationEventId", ContractSchemas.uuid),
        .required("destinationId", ContractSchemas.uuid), .required("jobId", .integer(minimum: 1)),
        .required("attempt", .integer(minimum: 1)), .required("delivered", .boolean),
        .required("urlHost", JSONSchema.string()), .required("status", JSONSchema.integer(minimum: 0).nullable()),
        .required("durationMs", .integer(minimum: 0)), .required("answer", JSONSchema.string()
            .described("the first bytes of the destination's answer")),
        .required("error", JSONSchema.string().nullable()), .required("attemptedAt", JSONSchema.string()),
    ], closed: false)

    /// One lead as `listAppLeads` shows it: contact members opened, `{"erased":true}` once the install was erased.
    static let appLead: JSONSchema = {
        let contact = JSONSchema.oneOf([
            JSONSchema.string(),
            .object([.required("erased", .constant(true))]),
            .object([.required("unreadable", .constant(true))]),
        ])
        return .object([
            .required("leadId", ContractSchemas.uuid), .required("form", JSONSchema.string()),
            .required("email", contact.nullable()), .required("firstName", contact.nullable()),
            .required("message", contact.nullable()), .required("marketingConsent", .boolean),
            .required("fillMs", JSONSchema.integer(minimum: 0).nullable()),
            .required("eventId", JSONSchema.string().nullable()),
            .required("sessionId", JSONSchema.string().nullable()), .required("receivedAt", JSONSchema.string()),
            .required("source", .enumeration(["form", "signup"])),
            .required("identity", JSONSchema.oneOf([
                .object([.optional("xid", .string()), .optional("em", .string()), .optional("emg", .string()),
                         .optional("lid", .string())]),
                .object([.required("erased", .constant(true))]),
                .object([.required("unreadable", .constant(true))]),
            ]).nullable()),
        ])
    }()

    static let leads = OpenAPIOperation(
        id: "listAppLeads", summary: "The leads an app of the key's project received, newest first",
        tag: "server-to-server",
        parameters: [
            .path("appId", ContractFields.appId),
            .query("limit", .integer(minimum: 1, maximum: AppLeadLookup.maxLimit),
                   "default \(AppLeadsHandler.defaultLimit)"),
            .query("after", .integer(minimum: 1, maximum: DeliveryHandler.maximumAfter), "a page's nextAfter"),
        ],
        responses: [
            .json(200, "one page of leads", .object([
                .required("leads", .array(appLead)),
                .required("nextAfter", JSONSchema.integer(minimum: 1).nullable()),
            ])),
            .error(400, "VALIDATION_APP_ID_FORMAT, or limit or after out of range (named)",
                   codes: appIdCodes + [.validationFailed]),
            notFound,
        ])

    static let deliveries = OpenAPIOperation(
        id: "listAppDeliveries", summary: "The forward attempts of an app of the key's project, newest first",
        tag: "server-to-server",
        parameters: [
            .path("appId", ContractFields.appId),
            .query("limit", .integer(minimum: 1, maximum: DeliveryLog.maxLimit),
                   "default \(DeliveryHandler.defaultLimit)"),
            .query("after", .integer(minimum: 1, maximum: DeliveryHandler.maximumAfter), "a page's nextAfter"),
        ],
        responses: [
            .json(200, "one page of attempts", .object([
                .required("deliveries", .array(delivery)),
                .required("nextAfter", JSONSchema.integer(minimum: 1).nullable()),
            ])),
            .error(400, "VALIDATION_APP_ID_FORMAT, or limit or after out of range (named)",
                   codes: appIdCodes + [.validationFailed]),
            notFound,
        ])
}
