import Domain

/// The fingerprint routes: the post-payment page's capture and the app's resolve.
enum FingerprintOperations {
    static let capture = OpenAPIOperation(
        id: "captureFingerprint", summary: "The post-payment page's script sends the browser fingerprint",
        tag: "public",
        body: .object([
            .required("token", ContractFields.pageToken), .required("screen", ContractFields.screen),
            .optional("timezone", ContractFields.timezone), .optional("language", ContractFields.language),
        ]),
        responses: [
            .empty(204, "accepted (nothing is kept when fingerprinting is off or the code is spent)"),
            .error(400, "a field is refused; the message names it", codes: ContractFields.bodyCodes),
            .error(404, "no page has this token", codes: []),
            PublicOperations.limited(Environment.defaultFingerprintCaptureLimit),
        ])

    static let resolve = OpenAPIOperation(
        id: "resolveByFingerprint", summary: "An app learns its buyer's guid from a recorded fingerprint",
        tag: "public",
        body: .object([
            .required("projectId", ContractFields.projectId), .required("platform", ContractFields.platform),
            .required("osVersion", ContractFields.osVersion), .required("screen", ContractFields.screen),
            .optional("timezone", ContractFields.timezone), .optional("language", ContractFields.language),
            .optional("bundleId", ContractFields.bundleId),
        ]),
        responses: [
            .json(200, "the buyer; the fingerprint is spent", ContractSchemas.success(.object([
                .required("guid", ContractFields.guid), .required("matchMethod", .enumeration(["fingerprint", "ip"])),
            ])), links: BuyerOperations.lookups("/data/guid")),
            .error(400, "a field is missing or refused (named)",
                   codes: ContractFields.bodyCodes + [.bundleIDFormat]),
            .error(404, "one answer for a miss, an ambiguity, an unknown or disabled project, another bundle id",
                   codes: []),
            PublicOperations.limited(Environment.defaultResolveByFingerprintLimit),
        ])
}
