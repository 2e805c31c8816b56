import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /s2s/v1/payments`: record a payment for a buyer in the key's project and answer its handoff code and install
/// token with their links.
enum PaymentHandler {
    static func create(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let body = try JSONBody.decode(PaymentRequest.self, from: request)
        let identity = try environment.identity()
        let metadata = EventMetadata(actor: .key(prefix: tenant.prefix), requestId: context.requestID,
                                     correlationId: context.requestID)
        let recorded = try identity.recordPayment.run(body.payment, org: tenant.orgId, project: tenant.projectId,
                                                      now: environment.clock(), metadata: metadata)
        let settings = try environment.projects.project(recorded.projectId, org: tenant.orgId)?.settings
        let returnLink = settings?.returnScheme.flatMap { text -> String? in
            guard case .success(let scheme) = ReturnScheme.parse(text) else { return nil }
            return HandoffLinks.returnLink(scheme: scheme, code: recorded.handoffCode)
        }
        let playStoreURL = settings?.androidPackage.flatMap { text -> String? in
            guard case .success(let package) = AndroidPackage.parse(text) else { return nil }
            return HandoffLinks.playStoreURL(package: package, token: recorded.installToken)
        }
        let trackerURL = PaymentAnswer.trackerURL(settings: settings, installToken: recorded.installToken,
                                                  projectId: recorded.projectId, paywallId: body.payment.paywallId)
        let pageToken = identity.context.pageTokens.seal(recorded.handoffCode)
        let answer = PaymentAnswer(
            paymentId: recorded.paymentId.text, guid: recorded.guid.description,
            handoff: .init(code: recorded.handoffCode.text, expiresAt: PaymentFields.text(recorded.handoffExpiresAt),
                           returnLink: returnLink, trackerUrl: trackerURL(.app), pageToken: pageToken,
                           postPaymentUrl: environment.publicBaseURL + "/done/" + pageToken),
            install: .init(token: recorded.installToken.text, expiresAt: PaymentFields.text(recorded.installExpiresAt),
                           playStoreUrl: playStoreURL, trackerUrl: trackerURL(.store)))
        return try JSONResponse.encode(answer)
    }
}

extension PaymentHandler {
    /// `POST /s2s/v1/payments/{paymentId}/refund`: revokes the payment's entitlement; repeats answer the same and record
    /// nothing. A body, if any, is ignored. Answer `{"paymentId","entitlement","status":"refunded","refundedAt"}`.
    static func refund(_ request: Request, _ context: RequestContext, _ environment: Environment, paymentId text: String)
        throws -> Response
    {
        let tenant = try context.tenant()
        let paymentId: PaymentID
        switch PaymentID.parse(text) {
        case .success(let value): paymentId = value
        case .failure(let refusal): throw APIError(refusal)
        }
        let identity = try environment.identity()
        let metadata = EventMetadata(actor: .key(prefix: tenant.prefix), requestId: context.requestID,
                                     correlationId: context.requestID)
        let refunded = try identity.refundPayment.run(paymentId, org: tenant.orgId, now: environment.clock(),
                                                      metadata: metadata)
        return try JSONResponse.encode(RefundAnswer(paymentId: paymentId.text, entitlement: refunded.entitlement,
                                                    status: "refunded", refundedAt: refunded.refundedAt))
    }
}

struct RefundAnswer: Encodable {
    var paymentId: String
    var entitlement: String
    var status: String
    var refundedAt: String
}

/// `{paymentId, guid, handoff:{code, expiresAt, returnLink, trackerUrl, pageToken, postPaymentUrl}, install:{token,
/// expiresAt, playStoreUrl, trackerUrl}}`; absent links are null; `pageToken` is the last segment of `postPaymentUrl`.
/// The tracker URLs are the two variants of the project's tracker link (`TrackerLink`): `handoff.trackerUrl` leads
/// into the app, `install.trackerUrl` to the store.
struct PaymentAnswer: Encodable {
    var paymentId: String
    var guid: String
    var handoff: Handoff
    var install: Install

    /// The project's tracker link for `recorded`'s install token, per destination; nil for every destination when
    /// the project has no tracker, or a stored link that no longer passes `TrackerLink.parse`.
    static func trackerURL(settings: ProjectSettings?, installToken: InstallToken, projectId: ProjectID,
                           paywallId: String?) -> (TrackerLink.Destination) -> String? {
        guard let settings, let text = settings.trackerLink,
              case .success(let link) = TrackerLink.parse(text, tracker: settings.tracker)
        else { return { _ in nil } }
        let scheme = settings.returnScheme.flatMap { try? ReturnScheme.parse($0).get() }
        return { destination in
            link.url(token: installToken, paywallId: paywallId, projectId: projectId,
                     returnScheme: scheme, destination: destination)
        }
    }

    struct Handoff: Encodable {
        var code: String
        var expiresAt: String
        var returnLink: String?
        var trackerUrl: String?
        var pageToken: String
        var postPaymentUrl: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(returnLink, forKey: .returnLink)
            try container.encode(trackerUrl, forKey: .trackerUrl)
            try container.encode(pageToken, forKey: .pageToken)
            try container.encode(postPaymentUrl, forKey: .postPaymentUrl)
        }
        private enum CodingKeys: String, CodingKey {
            case code, expiresAt, returnLink, trackerUrl, pageToken, postPaymentUrl
        }
    }

    struct Install: Encodable {
        var token: String
        var expiresAt: String
        var playStoreUrl: String?
        var trackerUrl: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(token, forKey: .token)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(playStoreUrl, forKey: .playStoreUrl)
            try container.encode(trackerUrl, forKey: .trackerUrl)
        }
        private enum CodingKeys: String, CodingKey { case token, expiresAt, playStoreUrl, trackerUrl }
    }
}

/// The body of `POST /s2s/v1/payments`. Every field is checked and a refusal names it; unknown fields are refused;
/// `expiresAt` must be present (null = lifetime), so a forgotten expiry cannot grant a lifetime entitlement.
struct PaymentRequest: Decodable {
    var payment: RecordPayment.Payment

    private static let fields: Set<String> = [
        "guid", "paymentId", "amount", "currency", "productId", "entitlement", "expiresAt", "email", "paywallId",
    ]

    private typealias Key = JSONField

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: Self.fields, what: "a field of a payment")
        func get<T>(_ result: Result<T, FieldRefusal>) throws -> T {
            switch result {
            case .success(let value): return value
            case .failure(let refusal): throw APIError(refusal)
            }
        }
        let guid = try get(BuyerGuid.parse(try container.decode(String.self, forKey: Key("guid"))))
        let paymentId = try get(PaymentID.parse(try container.decode(String.self, forKey: Key("paymentId"))))
        let amountValue: Int
        do {
            amountValue = try container.decode(Int.self, forKey: Key("amount"))
        } catch DecodingError.keyNotFound(let key, let context) {
            throw DecodingError.keyNotFound(key, context)
        } catch DecodingError.valueNotFound(let type, let context) {
            throw DecodingError.valueNotFound(type, context)
        } catch {
            // Foundation reports 9.5 or 1e30 for an Int with an error that does not name the key; name the field.
            throw APIError.validation("field 'amount' must be an integer")
        }
        let amount = try get(PaymentFields.amount(amountValue))
        let currency = try get(PaymentFields.currency(try container.decode(String.self, forKey: Key("currency"))))
        let productId = try get(PaymentFields.catalogID(try container.decode(String.self, forKey: Key("productId")),
                                                        field: "productId", code: .productIDFormat))
        let entitlement = try get(PaymentFields.catalogID(
            try container.decode(String.self, forKey: Key("entitlement")), field: "entitlement",
            code: .entitlementFormat))
        guard container.contains(Key("expiresAt")) else {
            throw APIError.validation("field 'expiresAt' is required (null for a lifetime entitlement)")
        }
        let expiresAt = try container.decodeIfPresent(String.self, forKey: Key("expiresAt"))
            .map { try get(PaymentFields.rfc3339($0)) }
        let email = try container.decodeIfPresent(String.self, forKey: Key("email"))
            .map { try get(EmailAddress.parse($0)) }
        let paywallId = try container.decodeIfPresent(String.self, forKey: Key("paywallId"))
            .map { try get(PaymentFields.catalogID($0, field: "paywallId", code: .paywallIDFormat)) }
        payment = RecordPayment.Payment(
            guid: guid, paymentId: paymentId, amount: amount, currency: currency, productId: productId,
            entitlement: entitlement, expiresAt: expiresAt, email: email, paywallId: paywallId)
    }
}
