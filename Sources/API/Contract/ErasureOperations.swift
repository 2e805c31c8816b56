import Domain

/// `POST /s2s/v1/users/{guid}/erasure` and `POST /s2s/v1/erasures`: erasure of a buyer's personal data.
enum ErasureOperations {
    static let erasedBuyer = JSONSchema.object([
        .required("erasureId", ContractSchemas.uuid), .required("guid", ContractFields.guid),
    ])

    static let erasedAddress = JSONSchema.object([
        .required("erasureId", ContractSchemas.uuid), .required("guids", .array(ContractFields.guid)),
    ])

    static let eraseUser = OpenAPIOperation(
        id: "eraseUser", summary: "Erase a buyer's personal data (GDPR Art. 17); repeats answer the first erasure",
        description: "In one transaction: the buyer's data keys are destroyed (every sealed value of theirs reads "
            + "as erased, in every event and export), their e-mail hashes, fingerprints, recovery gaps and codes' "
            + "sealed copies are deleted, and BuyerErased is recorded. Payments and entitlements stay. A body, if "
            + "any, is ignored.",
        tag: "server-to-server",
        parameters: [.path("guid", ContractFields.guid)],
        responses: [
            .json(202, "erased (a repeat answers the same erasureId and records nothing)", erasedBuyer,
                  links: BuyerOperations.lookups("/guid")),
            .error(400, "VALIDATION_GUID_FORMAT", codes: [.guidFormat]),
            .error(404, "this organization has no buyer with this guid", codes: [.notFound]),
        ])

    static let eraseByEmail = OpenAPIOperation(
        id: "eraseByEmail", summary: "Erase every buyer holding an e-mail address, and the address's recovery data",
        description: "Each buyer of the organization that gave the address (verified or not) is erased as by "
            + "eraseUser, with this erasure's id; the address's recovery requests and recovery gap are erased too. "
            + "An address no buyer holds (never given, or erased before) answers 202 with no guids.",
        tag: "server-to-server",
        body: .object([.required("email", ContractFields.email)]),
        responses: [
            .json(202, "erased: the erasure's id and the buyers it erased", erasedAddress),
            .error(400, "a field is refused; the message names it",
                   codes: ContractFields.bodyCodes + [.emailFormat]),
        ])

    static let eraseAppUsers = OpenAPIOperation(
        id: "eraseAppUsers", summary: "Erase a user's app installs, by user id or e-mail address",
        description: "Every install of the project's apps whose batches carried the user's account tokens — "
            + "SHA-256 of userId (id.xid), of the address trimmed and lowercased (id.em) or Google-normalized "
            + "(id.emg) — is erased as by the device's own erase: sessions, screen views, events, recordings and "
            + "account tokens deleted, its personal-data key destroyed, AppInstallErased recorded with this "
            + "erasure's id. At least one of userId and email (null counts as absent). A user with no installs "
            + "answers 202 with installs 0.",
        tag: "server-to-server",
        parameters: [.path("project", ContractFields.projectId, "the key's project")],
        body: .anyOf([
            .object([.required("userId", ContractFields.externalId),
                     .optional("email", ContractFields.email.nullable())]),
            .object([.optional("userId", ContractFields.externalId.nullable()),
                     .required("email", ContractFields.email)]),
        ]),
        responses: [
            .json(202, "erased: the erasure's id and how many installs", .object([
                .required("erasureId", ContractSchemas.uuid), .required("installs", .integer(minimum: 0)),
            ])),
            .error(400, "a field is refused; the message names it",
                   codes: ContractFields.bodyCodes + [.externalIDFormat, .emailFormat, .projectIDFormat]),
            .error(404, "not the key's project", codes: [.notFound]),
        ])
}
