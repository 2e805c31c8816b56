import Foundation

/// A project's settings as tenants read and change them (`GET`/`PATCH /s2s/v1/project`, `handoff admin project`).
///
/// Optional values are nil when unset. The invariant `applying(_:)` keeps: a tracker other than `none` has a link,
/// valid for that tracker by `TrackerLink.parse` (an Adjust `*.go.link`/`*.adj.st` link needs its own `adj_t`).
public struct ProjectSettings: Codable, Hashable, Sendable {
    public var name: String
    public var paywallUrl: String?
    public var returnScheme: String?
    public var androidPackage: String?
    public var iosBundleId: String?
    public var fingerprint: Bool
    public var tracker: Tracker
    public var trackerLink: String?
    /// What verifies a buyer's e-mail address (`payment`, the default, or `mailbox`).
    public var emailVerification: EmailVerification
    /// Where an affiliate's link (`GET /a/{refCode}`) leads, with `click=<signedClickId>` added; unset, the link
    /// leads to `paywallUrl` (`affiliateLanding`).
    public var landingUrl: String?

    /// Where a project sends install attribution; the raw values are the API's words.
    public enum Tracker: String, Codable, Hashable, Sendable, CaseIterable {
        case none, appsflyer, adjust
    }

    /// The most characters (Unicode scalars) a project name may have.
    public static let maxNameLength = 200
    /// A whole project name (lengths apart): no control characters.
    public static let namePattern = "^[^\(ScalarSet.controls.classBody)]*$"

    public init(name: String, paywallUrl: String? = nil, returnScheme: String? = nil, androidPackage: String? = nil,
                iosBundleId: String? = nil, fingerprint: Bool = false, tracker: Tracker = .none,
                trackerLink: String? = nil, emailVerification: EmailVerification = .payment,
                landingUrl: String? = nil) {
        self.name = name
        self.paywallUrl = paywallUrl
        self.returnScheme = returnScheme
        self.androidPackage = androidPackage
        self.iosBundleId = iosBundleId
        self.fingerprint = fingerprint
        self.tracker = tracker
        self.trackerLink = trackerLink
        self.emailVerification = emailVerification
        self.landingUrl = landingUrl
    }

    /// Where an affiliate's link leads: `landingUrl`, else `paywallUrl`; nil when neither is set.
    public var affiliateLanding: String? { landingUrl ?? paywallUrl }

    private enum CodingKeys: String, CodingKey {
        case name, paywallUrl, returnScheme, androidPackage, iosBundleId, fingerprint, tracker, trackerLink
        case emailVerification, landingUrl
    }

    /// Reads every key; `emailVerification`, absent from events recorded before it existed, defaults to `payment`;
    /// `landingUrl`, likewise absent from older events, to unset.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        paywallUrl = try container.decodeIfPresent(String.self, forKey: .paywallUrl)
        returnScheme = try container.decodeIfPresent(String.self, forKey: .returnScheme)
        androidPackage = try container.decodeIfPresent(String.self, forKey: .androidPackage)
        iosBundleId = try container.decodeIfPresent(String.self, forKey: .iosBundleId)
        fingerprint = try container.decode(Bool.self, forKey: .fingerprint)
        tracker = try container.decode(Tracker.self, forKey: .tracker)
        trackerLink = try container.decodeIfPresent(String.self, forKey: .trackerLink)
        emailVerification = try container.decodeIfPresent(EmailVerification.self, forKey: .emailVerification)
            ?? .payment
        landingUrl = try container.decodeIfPresent(String.self, forKey: .landingUrl)
    }

    /// Writes every key, unset values as `null`, so readers always see the full shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(paywallUrl, forKey: .paywallUrl)
        try container.encode(returnScheme, forKey: .returnScheme)
        try container.encode(androidPackage, forKey: .androidPackage)
        try container.encode(iosBundleId, forKey: .iosBundleId)
        try container.encode(fingerprint, forKey: .fingerprint)
        try container.encode(tracker, forKey: .tracker)
        try container.encode(trackerLink, forKey: .trackerLink)
        try container.encode(emailVerification, forKey: .emailVerification)
        try container.encode(landingUrl, forKey: .landingUrl)
    }

    /// The settings of a new project named `name` with `change` applied, or the first refusal.
    public static func new(name: String, nameField: String = "name",
                           change: ProjectSettingsChange) -> Result<ProjectSettings, FieldRefusal> {
        var withName = change
        withName.name = .set(name)
        withName.fields.name = nameField
        return ProjectSettings(name: "", fingerprint: true).applying(withName)
    }

    /// These settings with `change` applied, each value validated, or the first refusal (fields in declaration
    /// order, then the tracker/link pairing). Pure: no state but `self`.
    public func applying(_ change: ProjectSettingsChange) -> Result<ProjectSettings, FieldRefusal> {
        var next = self
        let fields = change.fields
        switch change.name {
        case .unchanged: break
        case .clear: return .failure(Self.nameRefusal(fields.name))
        case .set(let text):
            guard (1...Self.maxNameLength).contains(text.unicodeScalars.count),
                  !text.unicodeScalars.contains(where: ScalarSet.controls.contains)
            else { return .failure(Self.nameRefusal(fields.name)) }
            next.name = text
        }
        do {
            next.paywallUrl = try change.paywallUrl.applied(to: paywallUrl) {
                try PaywallURL.parse($0, field: fields.paywallUrl).get().text
            }
            next.returnScheme = try change.returnScheme.applied(to: returnScheme) {
                try ReturnScheme.parse($0, field: fields.returnScheme).get().text
            }
            next.androidPackage = try change.androidPackage.applied(to: androidPackage) {
                try AndroidPackage.parse($0, field: fields.androidPackage).get().text
            }
            next.iosBundleId = try change.iosBundleId.applied(to: iosBundleId) {
                try IOSBundleID.parse($0, field: fields.iosBundleId).get().text
            }
            next.trackerLink = try change.trackerLink.applied(to: trackerLink) { text in
                guard case .success(let url) = PaywallURL.parse(text, field: fields.trackerLink) else {
                    throw FieldRefusal(field: fields.trackerLink, code: .trackerLinkFormat,
                                       rule: "be an absolute https URL without user info")
                }
                return url.text
            }
            next.landingUrl = try change.landingUrl.applied(to: landingUrl) { text in
                guard case .success(let url) = PaywallURL.parse(text, field: fields.landingUrl) else {
                    throw FieldRefusal(field: fields.landingUrl, code: .landingURLFormat,
                                       rule: "be an absolute https URL (http only for localhost) without user info, "
                                           + "at most \(PaywallURL.maxLength) characters")
                }
                return url.text
            }
        } catch let refusal as FieldRefusal {
            return .failure(refusal)
        } catch {
            return .failure(FieldRefusal(field: fields.name, code: .validationFailed, rule: "be valid"))
        }
        if let fingerprint = change.fingerprint { next.fingerprint = fingerprint }
        if let tracker = change.tracker { next.tracker = tracker }
        if let emailVerification = change.emailVerification { next.emailVerification = emailVerification }
        if next.tracker == .none {
            // A link without a tracker has no meaning; dropping the tracker drops its link.
            if change.tracker == ProjectSettings.Tracker.none, change.trackerLink == .unchanged {
                next.trackerLink = nil
            }
            if next.trackerLink != nil {
                return .failure(FieldRefusal(field: fields.trackerLink, code: .trackerLinkFormat,
                                             rule: "be null while the tracker is none"))
            }
        } else if let link = next.trackerLink {
            // Checked when the tracker or its link changes, so a stored link made before a rule existed does not
            // block unrelated changes (the payment answer then has no tracker URL; see docs/identity.md).
            if change.tracker != nil || change.trackerLink != .unchanged,
               case .failure(let refusal) = TrackerLink.parse(link, tracker: next.tracker, field: fields.trackerLink) {
                return .failure(refusal)
            }
        } else {
            return .failure(FieldRefusal(field: fields.trackerLink, code: .trackerLinkFormat,
                                         rule: "be given when the tracker is \(next.tracker.rawValue)"))
        }
        return .success(next)
    }

    /// Parses a tracker name; refuses with `VALIDATION_TRACKER_FORMAT` naming `field`.
    public static func parseTracker(_ text: String, field: String = "tracker") -> Result<Tracker, FieldRefusal> {
        guard let tracker = Tracker(rawValue: text) else {
            return .failure(FieldRefusal(field: field, code: .trackerFormat, rule: "be none, appsflyer or adjust"))
        }
        return .success(tracker)
    }

    private static func nameRefusal(_ field: String) -> FieldRefusal {
        FieldRefusal(field: field, code: .projectNameFormat,
                     rule: "be 1 to \(maxNameLength) characters without control characters")
    }
}

/// What to do with one optional setting: keep it, set it (to be validated), or clear it.
public enum SettingChange: Hashable, Sendable {
    case unchanged
    case set(String)
    case clear

    func applied(to current: String?, _ validate: (String) throws -> String) throws -> String? {
        switch self {
        case .unchanged: return current
        case .clear: return nil
        case .set(let text): return try validate(text)
        }
    }
}

/// A requested change of project settings, with the names the caller used for each field (JSON keys or CLI flags)
/// so a refusal names what the caller typed.
public struct ProjectSettingsChange: Hashable, Sendable {
    public var name: SettingChange = .unchanged
    public var paywallUrl: SettingChange = .unchanged
    public var returnScheme: SettingChange = .unchanged
    public var androidPackage: SettingChange = .unchanged
    public var iosBundleId: SettingChange = .unchanged
    public var fingerprint: Bool?
    public var tracker: ProjectSettings.Tracker?
    public var trackerLink: SettingChange = .unchanged
    public var emailVerification: EmailVerification?
    public var landingUrl: SettingChange = .unchanged
    public var fields: FieldNames = .json

    public init(fields: FieldNames = .json) { self.fields = fields }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        name == .unchanged && paywallUrl == .unchanged && returnScheme == .unchanged && androidPackage == .unchanged
            && iosBundleId == .unchanged && fingerprint == nil && tracker == nil && trackerLink == .unchanged
            && emailVerification == nil && landingUrl == .unchanged
    }

    /// How the caller names each field in refusals.
    public struct FieldNames: Hashable, Sendable {
        public var name, paywallUrl, returnScheme, androidPackage, iosBundleId, fingerprint, tracker, trackerLink,
            emailVerification, landingUrl: String

        /// The JSON keys of `PATCH /s2s/v1/project`.
        public static let json = FieldNames(
            name: "name", paywallUrl: "paywallUrl", returnScheme: "returnScheme", androidPackage: "androidPackage",
            iosBundleId: "iosBundleId", fingerprint: "fingerprint", tracker: "tracker", trackerLink: "trackerLink",
            emailVerification: "emailVerification", landingUrl: "landingUrl")
        /// The flags of `handoff admin project create|update`.
        public static let flags = FieldNames(
            name: "--name", paywallUrl: "--paywall-url", returnScheme: "--return-scheme",
            androidPackage: "--android-package", iosBundleId: "--ios-bundle-id", fingerprint: "--fingerprint",
            tracker: "--tracker", trackerLink: "--tracker-link", emailVerification: "--email-verification",
            landingUrl: "--landing-url")
    }
}
