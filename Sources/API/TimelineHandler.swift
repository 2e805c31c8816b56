import Commands
import Domain
import Foundation
import HTTPServer

/// The diagnostics timelines (issue 18, docs/diagnostics.md): every fact of a buyer or a payment in order, each with
/// a sentence, under a verdict that says whether and how the app learned the guid, or the likeliest reason why not.
///
/// Only the key's organization is read: another organization's guid or payment is the same 404 as an unknown one
/// (a timeline never tells that another tenant has such a buyer). Answers hold no personal data and no codes.
enum TimelineHandler {
    /// `GET /s2s/v1/users/{guid}/timeline`.
    static func buyer(_ request: Request, _ context: RequestContext, _ environment: Environment, guid text: String)
        throws -> Response
    {
        let tenant = try context.tenant()
        let guid: BuyerGuid
        switch BuyerGuid.parse(text) {
        case .success(let parsed): guid = parsed
        case .failure(let refusal): throw APIError(refusal)
        }
        guard let timeline = try environment.model.timelines.buyer(guid, org: tenant.orgId, now: environment.clock())
        else { throw APIError(status: 404, code: .notFound, message: "no buyer with this guid") }
        return JSONResponse.raw(timeline.json.canonicalText)
    }

    /// `GET /s2s/v1/payments/{paymentId}/timeline`.
    static func payment(_ request: Request, _ context: RequestContext, _ environment: Environment,
                        paymentId text: String) throws -> Response
    {
        let tenant = try context.tenant()
        let paymentId: PaymentID
        switch PaymentID.parse(text) {
        case .success(let parsed): paymentId = parsed
        case .failure(let refusal): throw APIError(refusal)
        }
        guard let timeline = try environment.model.timelines.payment(paymentId, org: tenant.orgId,
                                                                     now: environment.clock())
        else { throw APIError(status: 404, code: .notFound, message: "no payment with this paymentId") }
        return JSONResponse.raw(timeline.json.canonicalText)
    }
}
