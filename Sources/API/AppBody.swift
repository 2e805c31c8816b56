import Domain
import Foundation

/// The bodies of `POST /s2s/v1/apps` and `PATCH /s2s/v1/apps/{appId}`, decoded field by field: unknown fields are
/// refused, each refusal names its field.
enum AppBody {
    /// The fields an app body may carry.
    static let known: Set<String> = Set(["platform", "bundleId", "appAppleId", "forwardUrl"]
        + AppSecretKind.allCases.map(\.rawValue))

    /// `POST /s2s/v1/apps`: `platform` and `bundleId` required; the rest optional (null counts as absent).
    struct Create: Decodable {
        var draft: AppDraft

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONField.self)
            try JSONBody.refuseUnknownFields(in: container, allowed: (AppBody.known), what: "a field of an app")
            let platform = try container.decode(String.self, forKey: JSONField("platform"))
            let bundleId = try container.decode(String.self, forKey: JSONField("bundleId"))
            let appAppleId = try container.decodeIfPresent(Int64.self, forKey: JSONField("appAppleId"))
            let forwardUrl = try container.decodeIfPresent(String.self, forKey: JSONField("forwardUrl"))
            var secrets: [AppSecretKind: String] = [:]
            for kind in AppSecretKind.allCases {
                guard container.contains(JSONField(kind.rawValue)),
                      try !container.decodeNil(forKey: JSONField(kind.rawValue)) else { continue }
                secrets[kind] = try AppBody.secret(kind, in: container)
            }
            switch AppDraft.parse(platform: platform, bundleId: bundleId, appAppleId: appAppleId,
                                  forwardUrl: forwardUrl, secrets: secrets, fields: .json) {
            case .success(let draft): self.draft = draft
            case .failure(let refusal): throw APIError(refusal)
            }
        }
    }

    /// `PATCH /s2s/v1/apps/{appId}`: any of the fields but `platform` (an app keeps its platform); an absent field
    /// is kept, null clears an optional one (`bundleId` cannot be cleared). `ingest` changes the AppConfig settings
    /// it names (`IngestSettingsBody`).
    struct Patch: Decodable {
        var change = AppChange(fields: .json)
        var ingest: IngestSettingsBody?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONField.self)
            try JSONBody.refuseUnknownFields(in: container,
                                             allowed: AppBody.known.subtracting(["platform"]).union(["ingest"]),
                                             what: "a field of an app that may change")
            if container.contains(JSONField("ingest")) {
                ingest = try IngestSettingsBody(from: try container.nestedContainer(keyedBy: JSONField.self,
                                                                                    forKey: JSONField("ingest")))
            }
            func isNull(_ name: String) throws -> Bool? {
                guard container.contains(JSONField(name)) else { return nil }
                return try container.decodeNil(forKey: JSONField(name))
            }
            var refusals: [FieldRefusal?] = []
            if let null = try isNull("bundleId") {
                guard !null else { throw APIError.validation("field 'bundleId' must not be null") }
                change.bundleId = try container.decode(String.self, forKey: JSONField("bundleId"))
            }
            if let null = try isNull("appAppleId") {
                refusals.append(change.setAppAppleId(
                    null ? nil : try container.decode(Int64.self, forKey: JSONField("appAppleId"))))
            }
            if let null = try isNull("forwardUrl") {
                refusals.append(change.setForwardUrl(
                    null ? nil : try container.decode(String.self, forKey: JSONField("forwardUrl"))))
            }
            for kind in AppSecretKind.allCases {
                guard let null = try isNull(kind.rawValue) else { continue }
                refusals.append(change.setSecret(kind, null ? nil : try AppBody.secret(kind, in: container)))
            }
            if let refusal = refusals.compactMap({ $0 }).first { throw APIError(refusal) }
        }
    }

    /// A secret's plain text: a string, or for `googleServiceAccountKey` the key file's object (every member a
    /// string) or the key file's text as one string, checked and turned into its JSON text.
    static func secret(_ kind: AppSecretKind, in container: KeyedDecodingContainer<JSONField>) throws -> String {
        let key = JSONField(kind.rawValue)
        guard kind == .googleServiceAccountKey else { return try container.decode(String.self, forKey: key) }
        if let text = try? container.decode(String.self, forKey: key) {
            switch GoogleServiceAccountKey.parse(jsonText: text, field: kind.rawValue) {
            case .success(let parsed): return parsed.jsonText
            case .failure(let refusal): throw APIError(refusal)
            }
        }
        let members = try container.nestedContainer(keyedBy: JSONField.self, forKey: key)
        var values: [String: String] = [:]
        for member in members.allKeys { values[member.stringValue] = try members.decode(String.self, forKey: member) }
        switch GoogleServiceAccountKey.parse(members: values, field: kind.rawValue) {
        case .success(let parsed): return parsed.jsonText
        case .failure(let refusal): throw APIError(refusal)
        }
    }
}

/// The body of `POST /s2s/v1/apps/{appId}/destinations`: `scheme`, `url`, and `secret` (required for `attribloom`).
struct DestinationBody: Decodable {
    var scheme: DestinationScheme
    var url: AppForwardURL
    var secret: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONField.self)
        try JSONBody.refuseUnknownFields(in: container, allowed: ["scheme", "url", "secret"],
                                         what: "a field of a destination")
        let scheme = try container.decode(String.self, forKey: JSONField("scheme"))
        let url = try container.decode(String.self, forKey: JSONField("url"))
        let secret = try container.decodeIfPresent(String.self, forKey: JSONField("secret"))
        do {
            self.scheme = try DestinationScheme.parse(scheme).get()
            self.url = try AppForwardURL.validate(url, field: "url").get()
            self.secret = try secret.map { try SecretText.token.parse($0, field: "secret").get() }
        } catch let refusal as FieldRefusal {
            throw APIError(refusal)
        }
        if self.scheme.requiresSecret, self.secret == nil {
            throw APIError(FieldRefusal(field: "secret", code: .secretFormat,
                                        rule: "be given for an \(self.scheme.rawValue) destination"))
        }
    }
}
