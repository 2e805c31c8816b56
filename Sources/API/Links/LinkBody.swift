import Domain
import Foundation

/// The body of `POST /s2s/v1/links`: `{"fallbackUrl","iosAppId"?,"androidAppId"?,"utm"?{source,medium,campaign,term,
/// content},"code"?,"appStore"?{pt,ct}}`, decoded field by field: unknown fields are refused, each refusal names its
/// field, `null` counts as absent for the optional ones.
struct LinkBody: Decodable {
    var draft: GoLinkDraft

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONField.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: ["fallbackUrl", "iosAppId", "androidAppId", "utm",
                                                                  "code", "appStore"], what: "a field of a link")
        let fallback = try container.decode(String.self, forKey: JSONField("fallbackUrl"))
        let ios = try container.decodeIfPresent(String.self, forKey: JSONField("iosAppId"))
        let android = try container.decodeIfPresent(String.self, forKey: JSONField("androidAppId"))
        let code = try container.decodeIfPresent(String.self, forKey: JSONField("code"))
        let utm = try Self.members(of: "utm", LinkUTM.members, in: container)
        let store = try Self.members(of: "appStore", ["pt", "ct"], in: container)
        do {
            let iosAppId = try ios.map { try AppID.parse($0, field: "iosAppId").get() }
            let androidAppId = try android.map { try AppID.parse($0, field: "androidAppId").get() }
            self.draft = try GoLinkDraft.parse(
                iosAppId: iosAppId, androidAppId: androidAppId, fallbackUrl: fallback, utm: utm, code: code,
                providerToken: store["pt"], campaignToken: store["ct"]).get()
        } catch let refusal as FieldRefusal {
            throw APIError(refusal)
        }
    }

    /// The string members of the optional object `field` (absent or null: none; a null member counts as absent).
    private static func members(of field: String, _ allowed: [String], in container: KeyedDecodingContainer<JSONField>)
        throws -> [String: String]
    {
        let key = JSONField(field)
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return [:] }
        let object = try container.nestedContainer(keyedBy: JSONField.self, forKey: key)
        for member in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !allowed.contains(member.stringValue) {
            throw APIError.validation("field '\(field).\(member.stringValue)' is not a member of \(field)")
        }
        var values: [String: String] = [:]
        for member in allowed {
            values[member] = try object.decodeIfPresent(String.self, forKey: JSONField(member))
        }
        return values
    }
}
