import Domain

/// `POST /s2s/v1/users`, the buyer lookups and the organization's history.
enum BuyerOperations {
    static let guidCodes: [MachineCode] = [.guidFormat, .visitorIDForeignProject]

    /// Links from an answer with a buyer's `guid` at `pointer` to the lookups of that buyer.
    static func lookups(_ pointer: String) -> [OpenAPILink] {
        [
            OpenAPILink(name: "user", operationId: "getUser", parameters: [("guid", "$response.body#\(pointer)")],
                        description: "the buyer"),
            OpenAPILink(name: "entitlements", operationId: "getUserEntitlements",
                        parameters: [("guid", "$response.body#\(pointer)")], description: "the buyer's entitlements"),
        ]
    }

    static let createUser = OpenAPIOperation(
        id: "createUser", summary: "Find or create a buyer by externalId or (verified) e-mail",
        description: "Same externalId in the organization → same guid; an e-mail alone finds the one buyer who "
            + "verified it, else a new buyer. null counts as absent; at least one of the two is required.",
        tag: "server-to-server",
        body: .anyOf([
            .object([.required("externalId", ContractFields.externalId),
                     .optional("email", ContractFields.email.nullable())]),
            .object([.optional("externalId", ContractFields.externalId.nullable()),
                     .required("email", ContractFields.email)]),
        ]),
        responses: [
            .json(200, "the buyer, with a paywall URL carrying a fresh pass", ContractSchemas.user,
                  links: lookups("/guid") + [
                      OpenAPILink(name: "payment", operationId: "createPayment",
                                  requestBody: ["guid": "$response.body#/guid"],
                                  description: "record a payment for the buyer"),
                      OpenAPILink(name: "erase", operationId: "eraseUser",
                                  parameters: [("guid", "$response.body#/guid")],
                                  description: "erase the buyer's personal data"),
                      OpenAPILink(name: "eraseByEmail", operationId: "eraseByEmail",
                                  requestBody: ["email": "$request.body#/email"],
                                  description: "erase every buyer holding the address the buyer was created with"),
                      DiagnosticsOperations.userTimelineLink("/guid"),
                  ]),
            .error(400, "neither field, or a field is refused; the message names it",
                   codes: ContractFields.bodyCodes + [.externalIDOrEmailRequired, .externalIDFormat, .emailFormat]),
        ])

    static let user = OpenAPIOperation(
        id: "getUser", summary: "A buyer: home project, externalId, e-mail verified, created", tag: "server-to-server",
        parameters: [.path("guid", ContractFields.guid)],
        responses: [
            .json(200, "the buyer", ContractSchemas.profile, links: [lookups("/guid")[1]]),
            .error(400, "VALIDATION_GUID_FORMAT, or VISITOR_ID_FOREIGN_PROJECT (a buyer of another organization)",
                   codes: guidCodes),
            .error(404, "no buyer has this guid", codes: [.notFound]),
        ])

    static let entitlements = OpenAPIOperation(
        id: "getUserEntitlements", summary: "A buyer's entitlements, judged at read time", tag: "server-to-server",
        parameters: [.path("guid", ContractFields.guid)],
        responses: [
            .json(200, "one per payment, oldest first; an unknown guid has none", .ref("Entitlements")),
            .error(400, "VALIDATION_GUID_FORMAT, or VISITOR_ID_FOREIGN_PROJECT", codes: guidCodes),
        ])

    static let events = OpenAPIOperation(
        id: "listEvents", summary: "The organization's history with each event's hashes, for finance",
        description: "Personal data opened (or {\"erased\":true}); codes and tokens {\"redacted\":true}. Verify the "
            + "chain with handoff audit export: the hashes cover the stored, sealed data.",
        tag: "server-to-server",
        parameters: [
            .query("after", .integer(minimum: 0, maximum: EventsHandler.maximumAfter), "an org_seq; default 0"),
            .query("limit", .integer(minimum: 1, maximum: EventsHandler.maximumLimit),
                   "default \(EventsHandler.defaultLimit)"),
        ],
        responses: [
            .json(200, "events after `after`, in org_seq order", ContractSchemas.eventsPage),
            .error(400, "after or limit out of range (named)", codes: [.validationFailed]),
        ])
}
