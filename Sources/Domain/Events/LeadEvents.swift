import Foundation

/// The stream names and personal-data subjects of app leads (`POST /v1/m/lead`, docs/app-leads.md).
public enum AppLeadStreams {
    /// One lead's stream: its `AppLeadReceived`.
    public static func lead(_ leadId: UUID) -> String { "app-lead-\(leadId.lowercasedText)" }

    /// The personal-data subject of an install's contact data: `app-install:<install hash>` (the install's keyed
    /// hash already names its app), so destroying that subject's key erases every lead the install sent.
    public static func installSubject(installHash: String) -> String { "app-install:\(installHash)" }
}

/// An app's SDK sent a lead form (`POST /v1/m/lead`, stream `app-lead-<leadId>`).
///
/// `email`, `firstName` and `message` are sealed for the subject `AppLeadStreams.installSubject(installHash)` (fields
/// `email`, `firstName`, `message`); absent when the form had none, or when the install's key was destroyed (an
/// erased install gets no new personal data). `installHash` is HMAC-SHA256(lookup pepper, `appId:inst`);
/// `contactHash` the keyed hash the double-submit rule compares; `emailRef` is the address's lookup reference
/// (`LookupRefVersion`; version 1 carried `emailHash`, its `LookupHash.email`, instead).
public struct AppLeadReceived: EventPayload, Equatable {
    public static let eventType = "AppLeadReceived"
    public static let schemaVersion = LookupRefVersion.current
    public var leadId: String
    public var appId: String
    public var projectId: String
    public var installHash: String
    public var sessionId: String?
    public var form: String
    public var eventId: String?
    public var contactHash: String
    public var email: SealedValue?
    /// Version 1 only.
    public var emailHash: String?
    public var emailRef: String?
    public var firstName: SealedValue?
    public var message: SealedValue?
    public var marketingConsent: Bool
    /// Milliseconds the user spent filling the form, as the SDK measured them.
    public var fillMs: Int?
    /// `signup` for a lead made by "signup is lead" from a batch (`form` is then `account_created`); absent for a
    /// lead form.
    public var source: String?
    /// For a signup lead: the batch's `id` hashes (`xid`, `em`, `emg`, `lid`: SHA-256 hex as the SDK sent them) as
    /// compact JSON, sealed for the install (field `identity`).
    public var identity: SealedValue?

    public init(leadId: UUID, appId: AppID, projectId: ProjectID, installHash: String, sessionId: String?,
                form: String, eventId: String?, contactHash: String, email: SealedValue?, emailRef: String?,
                firstName: SealedValue?, message: SealedValue?, marketingConsent: Bool, fillMs: Int?) {
        self.leadId = leadId.lowercasedText
        self.appId = appId.description
        self.projectId = projectId.description
        self.installHash = installHash
        self.sessionId = sessionId
        self.form = form
        self.eventId = eventId
        self.contactHash = contactHash
        self.email = email
        self.emailRef = emailRef
        self.firstName = firstName
        self.message = message
        self.marketingConsent = marketingConsent
        self.fillMs = fillMs
        self.source = nil
        self.identity = nil
    }

    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        try LookupRefVersion.upcast(data, from: schemaVersion, eventType: eventType)
    }
}
