import Foundation

/// The double-submit rule of `POST /v1/m/lead`: a lead repeats an earlier one of the same app received within
/// `window` when it carries the same `eventId`, or the same install, form and contact (docs/app-leads.md).
///
/// A signup lead ("signup is lead") is made once per install, ever. A repeat is answered like a new lead (202) and
/// records nothing.
public enum AppLeadDedupe {
    /// How long a lead shadows its repeats: two minutes.
    public static let window: TimeInterval = 120

    /// What the rule compares of a lead: the SDK's `eventId`, the install's keyed hash, the form, and the keyed hash
    /// of the contact (e-mail, first name, message).
    public struct Key: Sendable, Equatable {
        public var eventId: String?
        public var installHash: String
        public var form: String
        public var contactHash: String

        public init(eventId: String?, installHash: String, form: String, contactHash: String) {
            self.eventId = eventId
            self.installHash = installHash
            self.form = form
            self.contactHash = contactHash
        }
    }

    /// Whether `lead` repeats one of `recent` (the app's leads received within `window` before it).
    /// `installSignedUp`: whether the install already has a signup lead; only a signup lead looks at it.
    public static func isRepeat(_ lead: Key, of recent: [Key], signup: Bool = false, installSignedUp: Bool = false)
        -> Bool
    {
        if signup { return installSignedUp }
        return recent.contains { earlier in
            if let id = lead.eventId, id == earlier.eventId { return true }
            return earlier.installHash == lead.installHash && earlier.form == lead.form
                && earlier.contactHash == lead.contactHash
        }
    }
}
