/// A new app as the caller described it, every field checked: what `AppCreation` records once the shell has drawn
/// the ids and the store token and sealed the secrets.
public struct AppDraft: Sendable, Equatable {
    public var platform: DevicePlatform
    public var bundleId: String
    public var appAppleId: Int64?
    /// The forward URL: the app's default `x3` destination.
    public var forwardUrl: AppForwardURL?
    /// The secrets given, as checked plain text (to seal for the app).
    public var secrets: [AppSecretKind: String]

    /// Checks each field in order (platform, bundle id for that platform, App Store id, forward URL, secrets) and
    /// returns the first refusal, naming the field as `fields` spells it.
    public static func parse(platform: String, bundleId: String, appAppleId: Int64?, forwardUrl: String?,
                             secrets: [AppSecretKind: String], fields: AppFieldNames) -> Result<AppDraft, FieldRefusal>
    {
        do {
            let platform = try AppFields.platform(platform, field: fields.platform).get()
            var draft = AppDraft(platform: platform,
                                 bundleId: try AppFields.bundleID(bundleId, platform: platform,
                                                                  field: fields.bundleId).get(),
                                 appAppleId: nil, forwardUrl: nil, secrets: [:])
            draft.appAppleId = try appAppleId.map { try AppFields.appAppleID($0, field: fields.appAppleId).get() }
            draft.forwardUrl = try forwardUrl.map { try AppForwardURL.validate($0, field: fields.forwardUrl).get() }
            for kind in AppSecretKind.allCases {
                guard let text = secrets[kind] else { continue }
                draft.secrets[kind] = try kind.parse(text, field: fields.secret(kind)).get()
            }
            return .success(draft)
        } catch let refusal as FieldRefusal {
            return .failure(refusal)
        } catch {
            return .failure(FieldRefusal(field: fields.platform, code: .validationFailed, rule: "be valid"))
        }
    }
}
