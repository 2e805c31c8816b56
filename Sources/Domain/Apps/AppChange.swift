/// A requested change of an app, every field but the bundle id checked (the bundle id's rule depends on the app's
/// platform, which the decider knows). Absent fields are kept.
public struct AppChange: Sendable, Equatable {
    /// What to do with an optional value: keep it, set it, or clear it.
    public enum Change<Value: Sendable & Equatable>: Sendable, Equatable {
        case unchanged
        case set(Value)
        case clear
    }

    /// A new bundle id (checked against the app's platform by `AppUpdate`), or nil to keep it.
    public var bundleId: String?
    public var appAppleId: Change<Int64> = .unchanged
    /// The forward URL: set replaces the default `x3` destination, clear removes it.
    public var forwardUrl: Change<AppForwardURL> = .unchanged
    /// The secrets to set (checked plain text) or clear; a secret not named is kept.
    public var secrets: [AppSecretKind: Change<String>] = [:]
    public var fields: AppFieldNames

    public init(fields: AppFieldNames) { self.fields = fields }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        bundleId == nil && appAppleId == .unchanged && forwardUrl == .unchanged
            && secrets.values.allSatisfy { $0 == .unchanged }
    }

    /// Checks a plain value for `appAppleId` (nil clears it).
    public mutating func setAppAppleId(_ value: Int64?) -> FieldRefusal? {
        guard let value else {
            appAppleId = .clear
            return nil
        }
        switch AppFields.appAppleID(value, field: fields.appAppleId) {
        case .success(let id): appAppleId = .set(id)
        case .failure(let refusal): return refusal
        }
        return nil
    }

    /// Checks a forward URL (nil clears it).
    public mutating func setForwardUrl(_ text: String?) -> FieldRefusal? {
        guard let text else {
            forwardUrl = .clear
            return nil
        }
        switch AppForwardURL.validate(text, field: fields.forwardUrl) {
        case .success(let url): forwardUrl = .set(url)
        case .failure(let refusal): return refusal
        }
        return nil
    }

    /// Checks a secret (nil clears it).
    public mutating func setSecret(_ kind: AppSecretKind, _ text: String?) -> FieldRefusal? {
        guard let text else {
            secrets[kind] = .clear
            return nil
        }
        switch kind.parse(text, field: fields.secret(kind)) {
        case .success(let checked): secrets[kind] = .set(checked)
        case .failure(let refusal): return refusal
        }
        return nil
    }
}
