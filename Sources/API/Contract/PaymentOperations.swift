import Domain

/// `POST /s2s/v1/payments` and its refund.
enum PaymentOperations {
    static let create = OpenAPIOperation(
        id: "createPayment", summary: "Record a payment; mint its handoff code (72 h) and install token (30 d)",
        description: "Idempotent per (organization, paymentId): the same body answers the same codes, another body "
            + "409. A new guid becomes a buyer of the key's project. expiresAt must be present (null: lifetime).",
        tag: "server-to-server",
        body: .object([
            .required("guid", ContractFields.guid), .required("paymentId", ContractFields.paymentId),
            .required("amount", ContractFields.amount), .required("currency", ContractFields.currency),
            .required("productId", ContractFields.catalogId), .required("entitlement", ContractFields.catalogId),
            .required("expiresAt", ContractFields.expiresAt.nullable()),
            .optional("email", ContractFields.email.nullable()),
            .optional("paywallId", ContractFields.catalogId.nullable()),
        ]),
        responses: [
            .json(200, "the payment with its codes and links (a repeat answers the same)", ContractSchemas.payment,
                  links: links),
            .error(400, "a field is refused (named), or VISITOR_ID_FOREIGN_PROJECT (nothing recorded)",
                   codes: ContractFields.bodyCodes + [
                       .guidFormat, .paymentIDFormat, .amountFormat, .currencyFormat, .productIDFormat,
                       .entitlementFormat, .expiresAtFormat, .emailFormat, .paywallIDFormat, .visitorIDForeignProject,
                   ]),
            .error(409, "PAYMENT_CONFLICT: this paymentId was recorded with another body", codes: [.paymentConflict]),
        ])

    static let links: [OpenAPILink] = [
        OpenAPILink(name: "resolveHandoffCode", operationId: "resolveCode",
                    parameters: [("code", "$response.body#/handoff/code")],
                    description: "the app exchanges the handoff code for the guid"),
        OpenAPILink(name: "resolveInstallToken", operationId: "resolveCode",
                    parameters: [("code", "$response.body#/install/token")],
                    description: "a fresh install exchanges the install token for the guid"),
        OpenAPILink(name: "postPaymentPage", operationId: "getPostPaymentPage",
                    parameters: [("pageToken", "$response.body#/handoff/pageToken")],
                    description: "the buyer's browser opens the post-payment page"),
        OpenAPILink(name: "fingerprint", operationId: "captureFingerprint",
                    requestBody: ["token": "$response.body#/handoff/pageToken"],
                    description: "the page's script sends the browser fingerprint"),
        OpenAPILink(name: "refund", operationId: "refundPayment",
                    parameters: [("paymentId", "$response.body#/paymentId")], description: "refund it"),
        DiagnosticsOperations.paymentTimelineLink("/paymentId"),
    ] + BuyerOperations.lookups("/guid")

    static let refund = OpenAPIOperation(
        id: "refundPayment", summary: "Refund a payment: revoke its entitlement (repeats answer the same)",
        description: "A body, if any, is ignored.", tag: "server-to-server",
        parameters: [.path("paymentId", ContractFields.paymentId)],
        responses: [
            .json(200, "refunded", ContractSchemas.refund),
            .error(400, "VALIDATION_PAYMENT_ID_FORMAT", codes: [.paymentIDFormat]),
            .error(404, "this organization recorded no payment with this paymentId", codes: [.notFound]),
        ])
}
