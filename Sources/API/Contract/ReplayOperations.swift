/// A recorded session's replay (issue 21, docs/recordings.md "Replay"): the signed link, the page it opens, the
/// events the page plays and the vendored player.
enum ReplayOperations {
    /// A replay token: base64url of 73 to 328 bytes (the dashboard token's payload, the app id, the session id).
    static let token = JSONSchema.string(pattern: "^[A-Za-z0-9_-]{98,438}$")

    static let sessionId = JSONSchema.string(pattern: "^[^\\u0000-\\u001f\\u007f]+$", lengths: 1...64)

    static let createLink = OpenAPIOperation(
        id: "createReplayLink", summary: "A signed link to one recorded session's replay, valid 1 hour",
        description: "Anyone holding the URL can replay the session until expiresAt; nothing is stored, so a link "
            + "cannot be revoked before then. The session need not have packets yet (the page then says so).",
        tag: "server-to-server",
        parameters: [.path("appId", ContractFields.appId)],
        body: .object([.required("sessionId", sessionId.described("the SDK's session id (sid)"))]),
        responses: [
            .json(200, "the link", .object([
                .required("url", JSONSchema.string(format: "uri").described("PUBLIC_BASE_URL/replay/<token>")),
                .required("token", token), .required("expiresAt", ContractSchemas.instant),
            ]), links: [
                OpenAPILink(name: "replay", operationId: "getReplay",
                            parameters: [("token", "$response.body#/token")], description: "open the replay"),
                OpenAPILink(name: "replayEvents", operationId: "getReplayEvents",
                            parameters: [("token", "$response.body#/token")], description: "the events it plays"),
                OpenAPILink(name: "replayAsset", operationId: "getReplayAsset",
                            parameters: [("token", "$response.body#/token")],
                            description: "a screenshot its events name by sha"),
            ]),
            .error(400, "VALIDATION_APP_ID_FORMAT, or the body is refused (the message names the field)",
                   codes: AppOperations.appIdCodes + ContractFields.bodyCodes),
            AppOperations.notFound,
        ])

    static let page = OpenAPIOperation(
        id: "getReplay", summary: "The replay page a replay link opens (rrweb-player, served by this build)",
        tag: "public",
        parameters: [.path("token", token, "the last segment of the replay link")],
        responses: [
            OpenAPIResponse(status: 200, description: "an HTML page that loads /replay-player.js and plays the "
                            + "session's events", content: ("text/html", .string()),
                            links: [
                                OpenAPILink(name: "player", operationId: "getReplayPlayerScript",
                                            description: "the script the page loads"),
                                OpenAPILink(name: "playerStyle", operationId: "getReplayPlayerStyle",
                                            description: "the style sheet the page loads"),
                            ]),
            OpenAPIResponse(status: 404, description: "one fixed page for every bad, tampered or expired link",
                            content: ("text/html", .string())),
        ])

    static let events = OpenAPIOperation(
        id: "getReplayEvents", summary: "The rrweb events of the session a replay link names",
        description: "Every packet's events in seq order (at most \(ReplayHandler.maxPackets) packets and 32 MiB of "
            + "events; truncated says whether more were left out); screenshots' bytes are not inline (their sha "
            + "names a replay asset).",
        tag: "public",
        parameters: [.path("token", token, "the last segment of the replay link")],
        responses: [
            .json(200, "the events", .object([
                .required("sessionId", .string()), .required("events", .array(.anyObject)),
                .required("truncated", .boolean),
            ])),
            .error(404, "a bad, tampered or expired link", codes: [.notFound]),
        ])

    static let screenshot = OpenAPIOperation(
        id: "getReplayAsset", summary: "A screenshot the replayed session shows, by its SHA-256",
        description: "A replay asset of the link's app (stored once per content while recording.screenshots is on, "
            + "never for health apps), named by the sha of a screenshot event (type 5, tag x3, payload e img).",
        tag: "public",
        parameters: [
            .path("token", token, "the last segment of the replay link"),
            .path("sha", JSONSchema.string(pattern: "^[0-9a-f]{64}$"), "the image's SHA-256, lowercase hex"),
        ],
        responses: [
            OpenAPIResponse(status: 200, description: "the image as sent (image/png, image/jpeg or image/webp)",
                            content: ("image/*", .string(format: "binary"))),
            .error(404, "a bad, tampered or expired link, or no such screenshot of its app", codes: [.notFound]),
        ])

    static let script = OpenAPIOperation(
        id: "getReplayPlayerScript", summary: "rrweb-player's bundle, vendored (MIT licence), and the page's script",
        tag: "public",
        responses: [
            OpenAPIResponse(status: 200, description: "JavaScript", content: ("text/javascript", .string())),
            .error(404, "this build was shipped without the Handoff_API resources", codes: [.notFound]),
        ],
        usesBackends: false)

    static let style = OpenAPIOperation(
        id: "getReplayPlayerStyle", summary: "rrweb-player's style sheet, vendored (MIT licence)", tag: "public",
        responses: [
            OpenAPIResponse(status: 200, description: "CSS", content: ("text/css", .string())),
            .error(404, "this build was shipped without the Handoff_API resources", codes: [.notFound]),
        ],
        usesBackends: false)

    /// From a session's packets (`listAppRecordings`): a link to replay it.
    static let listLinks: [OpenAPILink] = [
        OpenAPILink(name: "replayLink", operationId: "createReplayLink",
                    parameters: [("appId", "$request.path.appId")],
                    requestBody: ["sessionId": "$response.body#/sessionId"], description: "a link to replay it"),
    ]
}
