import Commands
import Domain

/// `/s2s/v1/proxy-keys` (issue 21, docs/app-links.md "Proxy keys"): the key's organization's proxy keys.
enum ProxyKeyOperations {
    /// A host name as `ProxyDomains` takes it (any case; kept lowercased): dot-separated labels of letters, digits
    /// and inner `-`, at least two, at most 253 characters in all.
    static let domain = JSONSchema.string(
        pattern: "^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+"
            + "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
        .example("links.example.com")

    static let proxyKeyId = JSONSchema.string(pattern: "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}"
                                              + "-[0-9A-Fa-f]{12}$", lengths: 36...36, format: "uuid")

    static let key = JSONSchema.object([
        .required("proxyKeyId", ContractSchemas.uuid),
        .required("visiblePrefix", JSONSchema.string(pattern: "^px_[A-Za-z0-9_-]{8}$")
            .described("the key's first 11 characters")),
        .required("domains", .array(.string())),
        .required("createdAt", ContractSchemas.instant),
        .required("revokedAt", ContractSchemas.instant.nullable()),
    ])

    static let create = OpenAPIOperation(
        id: "createProxyKey", summary: "A proxy key for the organization's first-party proxy (shown once)",
        description: "The proxy forwards <its domain><prefix>/go/<code> to GET /v1/go/<code> with the key in "
            + "X-Handoff-Proxy-Key: link codes of the organization then resolve, and the address the proxy forwards "
            + "for (X-Forwarded-For) is the client for limits and the visitor hash. Only the key's SHA-256 is kept. "
            + "The key is the organization's, whichever project's secret key made it.",
        tag: "server-to-server",
        body: .object([.required("domains", JSONSchema([
            .init("type", .string("array")), .init("items", domain.json), .init("minItems", .integer(1)),
            .init("maxItems", .integer(ProxyDomains.maxCount)),
        ]).described("1 to 20 host names the proxy serves (kept lowercased, repeats once)"))]),
        responses: [
            .json(201, "the key, shown once", .object([
                .required("proxyKeyId", ContractSchemas.uuid),
                .required("proxyKey", JSONSchema.string(pattern: "^px_[A-Za-z0-9_-]{32}$")),
                .required("header", .constant(.string(ProxyKey.header))),
                .required("domains", .array(.string())),
            ]), links: [
                OpenAPILink(name: "proxyKeys", operationId: "listProxyKeys", description: "the organization's keys"),
                OpenAPILink(name: "revoke", operationId: "revokeProxyKey",
                            parameters: [("proxyKeyId", "$response.body#/proxyKeyId")], description: "revoke it"),
            ]),
            .error(400, "a field is refused; the message names it",
                   codes: ContractFields.bodyCodes + [.proxyDomainFormat]),
        ])

    static let list = OpenAPIOperation(
        id: "listProxyKeys", summary: "The organization's proxy keys, revoked ones included, oldest first",
        description: "Never the keys themselves: their ids, visible prefixes, domains and times.",
        tag: "server-to-server",
        responses: [.json(200, "the keys", .object([.required("proxyKeys", .array(key))]))])

    static let revoke = OpenAPIOperation(
        id: "revokeProxyKey", summary: "Revoke one of the organization's proxy keys",
        description: "From then on the key resolves no link code and vouches for no forwarded address. Revoking a "
            + "revoked key answers the same.",
        tag: "server-to-server",
        parameters: [.path("proxyKeyId", proxyKeyId)],
        responses: [
            .json(200, "the key with its revokedAt", key),
            .error(404, "the organization has no proxy key with this id", codes: [.notFound]),
        ])
}
