import Commands
import Domain

/// `/s2s/v1/links` and `GET /v1/go/{ref}` (issue 21, docs/app-links.md).
enum LinkOperations {
    static let appId = JSONSchema.string(pattern: "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}"
                                         + "-[0-9A-Fa-f]{12}$", lengths: 36...36, format: "uuid")
    static let utmValue = JSONSchema.string(LinkUTM.characters, lengths: 1...LinkUTM.maxLength)
    static let code = JSONSchema.string(GoLinkDraft.codeCharacters, lengths: GoLinkDraft.codeLengths)
        .described("a short code a proxy key's domain resolves (<prefix>/go/<code>); unique in the organization")
    static let providerToken = JSONSchema.string(GoLinkDraft.providerTokenCharacters,
                                                 lengths: GoLinkDraft.providerTokenLengths)
        .described("the App Store provider token (pt)")
    static let campaignToken = JSONSchema.string(GoLinkDraft.campaignTokenCharacters,
                                                 lengths: GoLinkDraft.campaignTokenLengths)
        .described("the App Store campaign token (ct)")
    static let fallbackUrl = JSONSchema.string(pattern: PaywallURL.pattern, lengths: 1...PaywallURL.maxLength)
        .example("https://example.com/get-the-app")
        .described("where every browser that is not an iPhone/iPad/iPod or Android goes (UTM parameters added)")
    static let token = JSONSchema.string(pattern: LinkToken.pattern, lengths: LinkToken.length...LinkToken.length)

    static let utm = JSONSchema.object(LinkUTM.members.map { .optional($0, utmValue.nullable()) })
    static let appStore = JSONSchema.object([
        .optional("pt", providerToken.nullable()), .optional("ct", campaignToken.nullable()),
    ])

    static let link = JSONSchema.object([
        .required("linkId", ContractSchemas.uuid), .required("projectId", ContractSchemas.uuid),
        .required("token", token.described("the link's global token: GET /v1/go/<token>")),
        .required("url", JSONSchema.string(format: "uri")
            .described("PUBLIC_BASE_URL/v1/go/<token>: the link to share")),
        .required("code", code.nullable()),
        .required("iosAppId", ContractSchemas.uuid.nullable()),
        .required("androidAppId", ContractSchemas.uuid.nullable()),
        .required("fallbackUrl", JSONSchema.string()),
        .required("utm", JSONSchema.object(LinkUTM.members.map { .optional($0, JSONSchema.string()) })),
        .required("appStore", JSONSchema.object([
            .required("pt", JSONSchema.string().nullable()), .required("ct", JSONSchema.string().nullable()),
        ])),
        .required("createdAt", ContractSchemas.instant),
    ])

    /// Links from the project answer to the link routes.
    static let projectLinks: [OpenAPILink] = [
        OpenAPILink(name: "createLink", operationId: "createLink",
                    requestBody: ["fallbackUrl": "https://example.com/get-the-app"],
                    description: "create a go link in this project"),
        OpenAPILink(name: "links", operationId: "listLinks", description: "the project's go links"),
    ]

    static let codes: [MachineCode] = ContractFields.bodyCodes + [
        .appIDFormat, .fallbackURLFormat, .utmFormat, .linkCodeFormat, .appStoreTokenFormat, .linkAppPlatform,
    ]

    static let create = OpenAPIOperation(
        id: "createLink", summary: "Create a go link in the key's project",
        description: "iosAppId and androidAppId name apps of the key's project on that platform (each optional; an "
            + "app of another project or organization is 404, as an unknown one). A visitor on Android goes to "
            + "Google Play with the install referrer utm_…&x3c=<click token>, on iPhone/iPad/iPod to the App Store "
            + "(pt, ct; the iOS app needs its appAppleId), everyone else to fallbackUrl with the UTM parameters "
            + "added. null counts as absent.",
        tag: "server-to-server",
        body: .object([
            .required("fallbackUrl", fallbackUrl),
            .optional("iosAppId", appId.nullable()), .optional("androidAppId", appId.nullable()),
            .optional("utm", utm.nullable()), .optional("code", code.nullable()),
            .optional("appStore", appStore.nullable()),
        ]),
        responses: [
            .json(201, "the link with its token and URL", link, links: [
                OpenAPILink(name: "follow", operationId: "followGoLink",
                            parameters: [("ref", "$response.body#/token")],
                            description: "a visitor follows the link"),
                OpenAPILink(name: "links", operationId: "listLinks", description: "all links of the project"),
            ]),
            .error(400, "a field is refused; the message names it", codes: codes),
            .error(404, "the key's project has no app with this id", codes: [.notFound]),
            .error(409, "LINK_CODE_TAKEN: another link of the organization has this code", codes: [.linkCodeTaken]),
        ])

    static let list = OpenAPIOperation(
        id: "listLinks", summary: "The key's project's go links, oldest first", tag: "server-to-server",
        responses: [.json(200, "the links", .object([.required("links", .array(link))]))])

    static let follow = OpenAPIOperation(
        id: "followGoLink", summary: "A go link: records a click and redirects by platform",
        description: "302: Android to Google Play with referrer=utm_…&x3c=<click token>, iPhone/iPad/iPod to the App "
            + "Store (pt, ct), anything else (or a platform the link has no app for) to the fallback URL with the "
            + "UTM parameters. s names the web session the visitor came from (else the same browser's click "
            + "within "
            + "30 minutes gives it); x3_test=1 marks test traffic. No cookie; no IP address or user agent is kept, "
            + "only a keyed daily visitor hash.",
        tag: "public",
        parameters: [
            .path("ref", token.described("the link's global token")),
            .query("s", JSONSchema.string(VisitorMatch.sessionCharacters, lengths: VisitorMatch.sessionLengths),
                   "the web session the visitor came from"),
            .query("x3_test", JSONSchema.enumeration(["1"]), "marks the click as test traffic"),
            OpenAPIParameter(name: ProxyKey.header, location: .header, schema: .string(),
                             required: false, description: "a proxy key (px_…): ref may then be a link code of the "
                                 + "key's organization; a wrong key resolves nothing"),
        ],
        responses: [
            OpenAPIResponse(status: 302, description: "to the store or the fallback URL", content: nil,
                            headers: [
                                ("Location", JSONSchema.string(format: "uri"), "the store page or the fallback URL"),
                                ("Cache-Control", .constant("no-store"), "never cached"),
                                ("Referrer-Policy", .constant("no-referrer"), "the next page learns no referrer"),
                            ]),
            OpenAPIResponse(status: 404, description: "one fixed page for an unknown or malformed token (or code), or "
                            + "a wrong proxy key",
                            content: ("text/html", .string())),
            PublicOperations.limited(Environment.defaultGoLinkLimit),
        ])
}
