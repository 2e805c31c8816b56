import Domain

/// The diagnostics routes (issue 18, docs/diagnostics.md): buyer and payment timelines.
enum DiagnosticsOperations {
    /// `{"identified":true,"path","at","text"}` or `{"identified":false,"reason","text"}`.
    static let verdict = JSONSchema.oneOf([
        .object([
            .required("identified", .constant(.bool(true))),
            .required("path", .enumeration(IdentificationPath.allCases.map(\.rawValue))),
            .required("at", ContractSchemas.instant), .required("text", .string()),
        ]),
        .object([
            .required("identified", .constant(.bool(false))), .required("reason", .string()),
            .required("text", .string()),
        ]),
    ])

    static let timeline = JSONSchema.object([
        .required("guid", ContractFields.guid),
        .required("paymentId", ContractFields.paymentId.nullable()),
        .required("verdict", verdict),
        .required("entries", .array(.object([
            .required("at", ContractSchemas.instant), .required("event", .string()), .required("line", .string()),
            .required("orgSeq", .integer(minimum: 1)),
            .required("paymentId", ContractFields.paymentId.nullable()),
        ]))),
        .required("truncated", .boolean),
    ])

    static let userTimeline = OpenAPIOperation(
        id: "getUserTimeline", summary: "A buyer's facts in order, each explained, under a verdict",
        description: "Whether and how the app learned the buyer's guid, or the likeliest reason why not and what to "
            + "do. Refusals the devices saw as 404 appear with their reason. No personal data, codes redacted.",
        tag: "server-to-server",
        parameters: [.path("guid", ContractFields.guid)],
        responses: [
            .json(200, "the timeline, oldest fact first", timeline),
            .error(400, "VALIDATION_GUID_FORMAT", codes: [.guidFormat]),
            .error(404, "this organization has no buyer with this guid", codes: [.notFound]),
        ])

    static let paymentTimeline = OpenAPIOperation(
        id: "getPaymentTimeline", summary: "A payment's facts (and its buyer's) in order, each explained, under a verdict",
        tag: "server-to-server",
        parameters: [.path("paymentId", ContractFields.paymentId)],
        responses: [
            .json(200, "the timeline, oldest fact first", timeline),
            .error(400, "VALIDATION_PAYMENT_ID_FORMAT", codes: [.paymentIDFormat]),
            .error(404, "this organization recorded no payment with this paymentId", codes: [.notFound]),
        ])

    /// Links from an answer with a buyer's `guid` at `pointer` to its timeline.
    static func userTimelineLink(_ pointer: String) -> OpenAPILink {
        OpenAPILink(name: "timeline", operationId: "getUserTimeline",
                    parameters: [("guid", "$response.body#\(pointer)")], description: "the buyer's timeline")
    }

    /// A link from an answer with a `paymentId` at `pointer` to its timeline.
    static func paymentTimelineLink(_ pointer: String) -> OpenAPILink {
        OpenAPILink(name: "timeline", operationId: "getPaymentTimeline",
                    parameters: [("paymentId", "$response.body#\(pointer)")], description: "the payment's timeline")
    }
}
