import Foundation

/// The stream names of payment events; every one lives in the paying buyer's organization's log.
public enum PaymentStreams {
    /// A payment's stream: `PaymentRecorded`, its two `HandoffCodeMinted`, later `PaymentRefunded`.
    public static func payment(_ id: PaymentID) -> String { "payment-\(id.text)" }
}

/// A tenant recorded a payment (`POST /s2s/v1/payments`) for a buyer in a project.
///
/// `bodyHash` is the hex SHA-256 of the request's normalized fields: a repeat with the same hash gets the same answer,
/// another body with the same `paymentId` is a conflict. `expiresAt` nil = lifetime entitlement.
///
/// `source` (added within schema version 1, left out of the JSON when nil) names the store a payment came from
/// (`apple`, `google`, `revenuecat`: recorded from a verified store notification, no codes minted); nil is a payment
/// a tenant recorded over S2S.
public struct PaymentRecorded: EventPayload, Equatable {
    public static let eventType = "PaymentRecorded"
    public static let schemaVersion = 1
    public var paymentId: String
    public var guid: String
    public var projectId: String
    public var amount: Int
    public var currency: String
    public var productId: String
    public var entitlement: String
    /// RFC 3339 UTC with milliseconds, or nil for a lifetime entitlement.
    public var expiresAt: String?
    public var paywallId: String?
    public var bodyHash: String
    public var source: String?

    public init(paymentId: String, guid: String, projectId: String, amount: Int, currency: String, productId: String,
                entitlement: String, expiresAt: String?, paywallId: String?, bodyHash: String,
                source: String? = nil) {
        self.paymentId = paymentId
        self.guid = guid
        self.projectId = projectId
        self.amount = amount
        self.currency = currency
        self.productId = productId
        self.entitlement = entitlement
        self.expiresAt = expiresAt
        self.paywallId = paywallId
        self.bodyHash = bodyHash
        self.source = source
    }
}

/// A handoff code or install token was minted for a payment. Never in clear: `codeHash` is the lookup hash
/// (`LookupHash.of(code, kind: "code")`, HMAC with the pepper) and `sealedCode` the code sealed for the buyer
/// (`pd1.…`, subject = guid, field `handoffCode` / `installToken`) for re-display on a repeated request.
///
/// `source` and `emailHash` were added later as optional fields within schema version 1 (docs/handoff-codes.md):
/// an event without them is a payment code that verifies no e-mail, which is exactly what codes minted before them
/// did. They are left out of the JSON when nil, so such events keep their old bytes.
/// Version 2 names the e-mail by its lookup reference (`emailRef`, `LookupRefVersion`) instead of `emailHash`.
public struct HandoffCodeMinted: EventPayload, Equatable {
    public static let eventType = "HandoffCodeMinted"
    public static let schemaVersion = LookupRefVersion.current
    public var codeHash: String
    public var guid: String
    /// The payment the code belongs to; for a recovery code, the buyer's payment whose project it answers.
    public var paymentId: String
    /// `handoff` (72 h) or `install` (30 d).
    public var kind: String
    public var expiresAt: String
    public var sealedCode: SealedValue
    /// `payment` (nil means the same) or `recovery` (a code mailed to the buyer; handoff kind only).
    public var source: String?
    /// Version 1: the lookup hash of the e-mail that redeeming this code verifies; nil for none.
    public var emailHash: String?
    /// Version 2: the lookup reference of that e-mail; nil for none.
    public var emailRef: String?

    public init(codeHash: String, guid: String, paymentId: String, kind: String, expiresAt: String,
                sealedCode: SealedValue, source: String? = nil, emailRef: String? = nil) {
        self.codeHash = codeHash
        self.guid = guid
        self.paymentId = paymentId
        self.kind = kind
        self.expiresAt = expiresAt
        self.sealedCode = sealedCode
        self.source = source
        self.emailRef = emailRef
    }

    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        try LookupRefVersion.upcast(data, from: schemaVersion, eventType: eventType)
    }
}

/// An e-mail given with a payment was attached to an existing buyer, unverified (sealed + lookup reference, as in
/// `BuyerCreated`; version 1: lookup hash). Stream `buyer-<guid>`.
public struct BuyerEmailAttached: EventPayload, Equatable {
    public static let eventType = "BuyerEmailAttached"
    public static let schemaVersion = LookupRefVersion.current
    public var guid: String
    public var email: SealedValue
    /// Version 1 only.
    public var emailHash: String?
    public var emailRef: String?

    public init(guid: String, email: SealedValue, emailRef: String) {
        self.guid = guid
        self.email = email
        self.emailRef = emailRef
    }

    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        try LookupRefVersion.upcast(data, from: schemaVersion, eventType: eventType)
    }
}

/// A payment was refunded (`POST /s2s/v1/payments/{paymentId}/refund`): its entitlement is revoked from `refundedAt`
/// (RFC 3339 UTC, the service clock) on. Recorded once per payment.
public struct PaymentRefunded: EventPayload, Equatable {
    public static let eventType = "PaymentRefunded"
    public static let schemaVersion = 1
    public var paymentId: String
    public var refundedAt: String

    public init(paymentId: String, refundedAt: String) {
        self.paymentId = paymentId
        self.refundedAt = refundedAt
    }
}

extension PersonalDataField {
    /// A handoff code, sealed for re-display.
    public static let handoffCode = PersonalDataField(rawValue: "handoffCode")
    /// An install token, sealed for re-display.
    public static let installToken = PersonalDataField(rawValue: "installToken")
}
