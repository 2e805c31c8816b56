/// `POST /v1/m/r` (issue 21, docs/recordings.md): an SDK's session-recording packet. Errors are the compact ingest
/// shape (`IngestOperations.error`).
enum RecordingOperations {
    static let packet = OpenAPIOperation(
        id: "sendRecordingPacket", summary: "An SDK's session-recording packet",
        description: "The bytes X3R1, the header's length (4 bytes, big-endian), the header (JSON: v, k, plat, bid, "
            + "ins, sid, sec, seq, at, scr, cm, cs) and the gzip of the NDJSON rrweb events. Answers text ok (stored) "
            + "or off (recording is off for the app, cs is not gg, or a health app's cm is not opt_in: stop "
            + "recording this session). Screenshots are kept only while recording.screenshots is on and never for a "
            + "health app. Events at most 2 MiB once inflated and 2000 per packet.",
        tag: "app-ingest",
        body: JSONSchema.string(lengths: 8...524_288, format: "binary"),
        bodyMediaType: "application/octet-stream",
        responses: [
            OpenAPIResponse(status: 200, description: "ok: stored; off: not stored, stop recording",
                            content: ("text/plain", .enumeration(["ok", "off"]))),
            IngestOperations.error(400, "the framing, header or events are wrong (invalid); detail names the part",
                                   code: "invalid", detail: true),
            IngestOperations.error(403, "the key is unknown (key), plat/bid are not its app's (app_mismatch), the "
                                   + "session's first packet fixed another sec (secret), or seq is stored (duplicate)",
                                   code: "key")
                .replacingSchema(.oneOf(["key", "app_mismatch", "secret", "duplicate"].map(errorSchema))),
            IngestOperations.tooLarge(524_288),
            IngestOperations.error(422, "the screen is in recording.excludeScreens (page_excluded)",
                                   code: "page_excluded"),
        ] + IngestOperations.common.filter { $0.status != 403 })

    private static func errorSchema(_ code: String) -> JSONSchema {
        .object([.required("ok", .constant(false)), .required("code", .constant(.string(code)))])
    }

    static let list = OpenAPIOperation(
        id: "listAppRecordings", summary: "The recording packets of one session of an app of the key's project",
        description: "By seq; events are the packet's rrweb events (screenshots' bytes taken out: their sha names a "
            + "replay asset). An unknown session is an empty list.",
        tag: "server-to-server",
        parameters: [
            .path("appId", ContractFields.appId),
            .query("sessionId", JSONSchema.string(pattern: "^[^\\u0000-\\u001f\\u007f]+$", lengths: 1...64),
                   required: true, "the SDK's session id (sid); 1 to 64 characters, no control character"),
            .query("limit", .integer(minimum: 1, maximum: RecordingListHandler.maxLimit),
                   "default \(RecordingListHandler.defaultLimit)"),
            .query("after", .integer(minimum: 0, maximum: Int(Int32.max)), "a page's nextAfter"),
        ],
        responses: [
            .json(200, "one page of packets", .object([
                .required("sessionId", .string()),
                .required("packets", .array(.object([
                    .required("seq", .integer(minimum: 0)), .optional("screen", .string()),
                    .required("startedAt", .string()), .required("endedAt", .string()),
                    .required("eventCount", .integer(minimum: 1)), .required("receivedAt", .string()),
                    .required("events", .array(.anyObject)),
                ]))),
                .required("nextAfter", JSONSchema.integer(minimum: 0).nullable()),
            ]), links: ReplayOperations.listLinks),
            .error(400, "VALIDATION_APP_ID_FORMAT, or sessionId missing, or limit or after out of range (named)",
                   codes: AppOperations.appIdCodes + [.validationFailed]),
            AppOperations.notFound,
        ])

    /// From an answer carrying an app: its SDK sends a recording packet (a body the stateful phase generates), and
    /// the project reads a session's packets.
    static let links: [OpenAPILink] = [
        OpenAPILink(name: "recordingPacket", operationId: "sendRecordingPacket",
                    description: "the app's SDK sends a session-recording packet"),
        OpenAPILink(name: "recordings", operationId: "listAppRecordings",
                    parameters: [("appId", "$response.body#/appId"), ("sessionId", "session-1")],
                    description: "a session's recording packets"),
    ]
}
