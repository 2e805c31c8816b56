import Commands
import Domain

/// `GET /s2s/v1/audit/heads` and `GET /s2s/v1/audit/keys` (issue 16 §1).
enum AuditOperations {
    static let hex64 = JSONSchema.string(pattern: "^[0-9a-f]{64}$")
    /// A time in the canonical form of the export: UTC with six fraction digits.
    static let canonicalTime = JSONSchema.string(
        pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}Z$", lengths: 27...27)
    static let keyId = JSONSchema.string(pattern: "^[0-9a-f]{16}$")

    /// A signed chain head's document.
    static let head = JSONSchema.object([
        .required("hash", hex64.described("the hash of the org's event at org_seq")),
        .required("key_id", keyId), .required("org_id", ContractSchemas.uuid),
        .required("org_seq", .integer(minimum: 1)), .required("recorded_at", canonicalTime),
        .required("signature", JSONSchema.string(pattern: "^[0-9a-f]{128}$")
            .described("Ed25519 over the canonical JSON of the other six members")),
        .required("signed_at", canonicalTime),
    ])

    static let heads = OpenAPIOperation(
        id: "listAuditHeads", summary: "The organization's signed chain heads, for auditors",
        description: "Each head signs the hash of the organization's event at org_seq with the deployment's audit "
            + "key (GET /s2s/v1/audit/keys); an export of the history must reach org_seq with that hash.",
        tag: "server-to-server",
        parameters: [
            .query("after", .integer(minimum: 0, maximum: EventsHandler.maximumAfter), "an org_seq; default 0"),
            .query("limit", .integer(minimum: 1, maximum: AuditTrail.maxLimit),
                   "default \(AuditHandler.defaultLimit)"),
        ],
        responses: [
            .json(200, "heads after `after`, in org_seq order", .object([
                .required("heads", .array(head)),
                .required("nextAfter", JSONSchema.integer(minimum: 0).described("pass as after for the next page")),
            ])),
            .error(400, "after or limit out of range (named)", codes: [.validationFailed]),
        ])

    static let keys = OpenAPIOperation(
        id: "listAuditKeys", summary: "The public keys of the deployment's audit key, old ones included",
        tag: "server-to-server",
        responses: [
            .json(200, "every key that ever signed a head, the first used first", .object([
                .required("keys", .array(.object([
                    .required("algorithm", .constant("ed25519")), .required("first_used_at", canonicalTime),
                    .required("key_id", keyId.described("the first 16 hex digits of SHA-256(public key)")),
                    .required("public_key", hex64.described("the 32 raw bytes of the Ed25519 key")),
                    .required("public_key_pem", JSONSchema.string().described("the same key as a PEM PUBLIC KEY")),
                ]))),
            ])),
        ])
}
