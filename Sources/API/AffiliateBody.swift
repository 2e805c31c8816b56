import Domain
import Foundation

/// The bodies of `POST /s2s/v1/campaigns` and `POST /s2s/v1/affiliates`, decoded field by field: unknown fields are
/// refused, each refusal names its field, `null` counts as absent for the optional ones.
enum AffiliateBody {
    /// `{"name","commission":{…},"windowDays"?,"holdDays"?,"offerCode"?}`.
    struct Campaign: Decodable {
        var terms: CampaignTerms

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONField.self)
            try JSONBody.refuseUnknownFields(in: container, allowed: ["name", "commission", "windowDays", "holdDays",
                                                                      "offerCode"], what: "a field of a campaign")
            let name = try container.decode(String.self, forKey: JSONField("name"))
            let rule = try container.nestedContainer(keyedBy: JSONField.self, forKey: JSONField("commission"))
            let members = ["type", "basisPoints", "amountMinor", "currency", "recurringRenewals"]
            for key in rule.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
            where !members.contains(key.stringValue) {
                throw APIError.validation("field 'commission.\(key.stringValue)' is not a member of a commission rule")
            }
            let commission = CommissionRule.parse(
                type: try rule.decode(String.self, forKey: JSONField("type")),
                basisPoints: try rule.decodeIfPresent(Int.self, forKey: JSONField("basisPoints")),
                amountMinor: try rule.decodeIfPresent(Int.self, forKey: JSONField("amountMinor")),
                currency: try rule.decodeIfPresent(String.self, forKey: JSONField("currency")),
                recurringRenewals: try rule.decodeIfPresent(Int.self, forKey: JSONField("recurringRenewals")))
            let windowDays = try container.decodeIfPresent(Int.self, forKey: JSONField("windowDays"))
            let holdDays = try container.decodeIfPresent(Int.self, forKey: JSONField("holdDays"))
            let offerCode = try container.decodeIfPresent(String.self, forKey: JSONField("offerCode"))
            switch commission.flatMap({
                CampaignTerms.parse(name: name, commission: $0, windowDays: windowDays, holdDays: holdDays,
                                    offerCode: offerCode)
            }) {
            case .success(let terms): self.terms = terms
            case .failure(let refusal): throw APIError(refusal)
            }
        }
    }

    /// `{"name","campaignId","refCode"?}`.
    struct Affiliate: Decodable {
        var draft: AffiliateDraft

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONField.self)
            try JSONBody.refuseUnknownFields(in: container, allowed: ["name", "campaignId", "refCode"],
                                             what: "a field of an affiliate")
            let name = try container.decode(String.self, forKey: JSONField("name"))
            let campaign = try container.decode(String.self, forKey: JSONField("campaignId"))
            let code = try container.decodeIfPresent(String.self, forKey: JSONField("refCode"))
            do {
                let campaignId = try CampaignID.parse(campaign).get()
                let refCode = try code.map { try RefCode.parse($0).get() }
                self.draft = try AffiliateDraft.parse(name: name, campaign: campaignId, refCode: refCode).get()
            } catch let refusal as FieldRefusal {
                throw APIError(refusal)
            }
        }
    }
}
