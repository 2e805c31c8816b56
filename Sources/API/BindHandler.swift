import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /v1/app-store/bind {"projectId","signedClickId"?,"refCode"?,"guid"?}` (issue 15): binds the App Store
/// `appAccountToken` an app passes to StoreKit to an affiliate's referral, named by the click id the affiliate link
/// added to the landing URL or by the affiliate's code. Answers
/// `{"success":true,"data":{"appAccountToken":"<uuid>","offerCode":<string|null>,"expiresAt":"<instant>"}}` for the
/// referral that holds (first touch wins inside its window; the same token and click again answer the same).
///
/// Refusals: 400 naming the field (exactly one of `signedClickId` and `refCode`; malformed values;
/// `VISITOR_ID_FOREIGN_PROJECT` for a guid of another organization); one 404 for an unknown project and an unknown,
/// expired, tampered or foreign-project click or code; 10 per minute per client IP (429); 503 while Redis is down
/// (fails closed) or without the identity secrets. Nothing is recorded on a refusal.
enum BindHandler {
    static func bind(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let decision = environment.rateLimiter.check(environment.bindLimit, key: environment.clientKey(request))
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let body = try JSONBody.decode(Body.self, from: request)
        let keys = try environment.identity().secrets.passKeys
        let metadata = EventMetadata(actor: .system("bind"), requestId: context.requestID,
                                     correlationId: context.requestID)
        let bound: BindReferral.Bound
        do {
            bound = try environment.model.affiliates.bindReferral.run(
                project: body.projectId, source: body.source, guid: body.guid, now: environment.clock(), keys: keys,
                metadata: metadata)
        } catch let refusal as Refusal where refusal.kind == .notFound {
            throw notFound
        }
        // The offer code's characters (A-Z a-z 0-9 _ -) need no escaping.
        let offerCode = bound.offerCode.map { "\"\($0)\"" } ?? "null"
        let token = bound.appAccountToken.lowercasedText
        return JSONResponse.raw(#"{"success":true,"data":{"appAccountToken":"\#(token)","offerCode":\#(offerCode),"#
            + #""expiresAt":"\#(PaymentFields.text(bound.expiresAt))"}}"#)
    }

    /// The one 404 of bind, whatever was wrong with the click, the code or the project.
    static let notFound = APIError(status: 404, code: nil, message: ReferralBinding.notFound.message)

    /// The body: `projectId` required, exactly one of `signedClickId` and `refCode`, `guid` optional; `null` counts
    /// as absent; nothing else.
    struct Body: Decodable {
        var projectId: ProjectID
        var source: BindReferral.Source
        var guid: BuyerGuid?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONField.self)
            try JSONBody.refuseUnknownFields(in: container, allowed: ["projectId", "signedClickId", "refCode", "guid"],
                                             what: "a field of a bind")
            let project = try container.decode(String.self, forKey: JSONField("projectId"))
            let click = try container.decodeIfPresent(String.self, forKey: JSONField("signedClickId"))
            let code = try container.decodeIfPresent(String.self, forKey: JSONField("refCode"))
            let guid = try container.decodeIfPresent(String.self, forKey: JSONField("guid"))
            do {
                self.projectId = try ProjectID.parse(project).get()
                switch (click, code) {
                case (nil, nil):
                    throw FieldRefusal(field: "signedClickId", code: .signedClickIDOrRefCodeRequired,
                                       rule: "be given, or field 'refCode' (exactly one of the two)")
                case (_?, _?):
                    throw FieldRefusal(field: "refCode", code: .signedClickIDOrRefCodeRequired,
                                       rule: "be absent when field 'signedClickId' is given (exactly one of the two)")
                case (let click?, nil):
                    self.source = .click(try SignedClickID.parse(click).get())
                case (nil, let code?):
                    self.source = .code(try RefCode.parse(code).get())
                }
                self.guid = try guid.map { try BuyerGuid.parse($0).get() }
            } catch let refusal as FieldRefusal {
                throw APIError(refusal)
            }
        }
    }
}
