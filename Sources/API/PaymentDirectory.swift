import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Payments as commands on the event store: record a payment for a buyer and mint its handoff code and install token.
///
/// Idempotent by (org, paymentId): a repeat with the same normalized body (same `bodyHash`) re-displays the stored
/// codes, a different body is `PAYMENT_CONFLICT`. Concurrent first recordings collide on the `payments` primary key
/// (or the payment stream's `.noStream`); the losers roll back and run again, finding the winner.
public struct PaymentDirectory: Sendable {
    public let store: EventStore
    private let subjectKeys: SubjectKeys
    private let lookupPepper: [UInt8]
    private let pageTokens: PageToken
    /// Mints the payment's codes (the same function recovery mails use).
    public let codes: HandoffCodes

    public init(store: EventStore, secrets: IdentitySecrets) {
        self.store = store
        self.subjectKeys = SubjectKeys(masterKey: secrets.masterKey)
        self.lookupPepper = secrets.lookupPepper
        self.pageTokens = PageToken(masterKey: secrets.masterKey)
        self.codes = HandoffCodes(secrets: secrets)
    }

    /// A validated payment request.
    public struct Payment: Sendable, Equatable, Encodable {
        public var guid: BuyerGuid
        public var paymentId: PaymentID
        public var amount: Int
        public var currency: String
        public var productId: String
        public var entitlement: String
        public var expiresAt: Date?
        public var email: EmailAddress?
        public var paywallId: String?

        public init(guid: BuyerGuid, paymentId: PaymentID, amount: Int, currency: String, productId: String,
                    entitlement: String, expiresAt: Date?, email: EmailAddress?, paywallId: String?) {
            self.guid = guid
            self.paymentId = paymentId
            self.amount = amount
            self.currency = currency
            self.productId = productId
            self.entitlement = entitlement
            self.expiresAt = expiresAt
            self.email = email
            self.paywallId = paywallId
        }

        private enum CodingKeys: String, CodingKey {
            case guid, paymentId, amount, currency, productId, entitlement, expiresAt, email, paywallId
        }

        /// The normalized form the body hash is taken over (every key present, nulls included).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(guid.description, forKey: .guid)
            try container.encode(paymentId.text, forKey: .paymentId)
            try container.encode(amount, forKey: .amount)
            try container.encode(currency, forKey: .currency)
            try container.encode(productId, forKey: .productId)
            try container.encode(entitlement, forKey: .entitlement)
            try container.encode(expiresAt.map(PaymentFields.text), forKey: .expiresAt)
            try container.encode(email?.text, forKey: .email)
            try container.encode(paywallId, forKey: .paywallId)
        }
    }

    /// What a recorded payment answers with: its codes in clear (only ever in the answer) and their expiries.
    public struct Recorded: Sendable, Equatable {
        public var guid: BuyerGuid
        public var paymentId: PaymentID
        public var projectId: ProjectID
        public var handoffCode: HandoffCode
        public var handoffExpiresAt: Date
        public var installToken: InstallToken
        public var installExpiresAt: Date
    }

    /// Records `payment` in `project` of `org` at `now`, or re-displays it when already recorded with the same body.
    ///
    /// Throws 400 `VISITOR_ID_FOREIGN_PROJECT` for a guid of another org (nothing recorded) and 409
    /// `PAYMENT_CONFLICT` for a known paymentId with another body.
    public func record(
        _ payment: Payment, org: OrgID, project: ProjectID, now: Date, metadata: EventMetadata
    ) throws -> Recorded {
        let bodyHash = try self.bodyHash(payment)
        var attempt = 1
        while true {
            do {
                return try store.transact(maxAttempts: 5) { transaction in
                    try record(payment, bodyHash: bodyHash, org: org, project: project, now: now, metadata: metadata,
                               transaction: transaction)
                }
            } catch let error as PostgresError where error.kind == .uniqueViolation && attempt < 8 {
                attempt += 1
            } catch let error where EventStore.isRetryable(error) && attempt < 8 {
                attempt += 1
            }
        }
    }

    private func record(
        _ payment: Payment, bodyHash: String, org: OrgID, project: ProjectID, now: Date, metadata: EventMetadata,
        transaction: EventTransaction
    ) throws -> Recorded {
        let connection = transaction.connection
        if let existing = try redisplay(payment, bodyHash: bodyHash, org: org, on: connection) { return existing }

        let guid = payment.guid
        let emailHash = payment.email.map { LookupHash.email($0.text, pepper: lookupPepper) }
        let home = try connection.query("SELECT org_id::text AS org_id FROM buyers WHERE guid = $1::uuid",
                                        [.text(guid.description)]).rows.first
        if let home {
            guard try home.string("org_id") == org.description else { throw Self.foreign }
            if let email = payment.email, let emailHash,
               try connection.query("SELECT 1 FROM buyer_emails WHERE guid = $1::uuid AND email_hash = $2",
                                    [.text(guid.description), .text(emailHash)]).rows.isEmpty {
                let sealed = try seal(email.text, field: .email, org: org, guid: guid, on: connection)
                try transaction.append(
                    org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .any,
                    events: [try NewEvent(BuyerEmailAttached(guid: guid.description, email: sealed,
                                                             emailHash: emailHash))],
                    metadata: metadata)
            }
        } else {
            let sealed = try payment.email.map { try seal($0.text, field: .email, org: org, guid: guid, on: connection) }
            try transaction.append(
                org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .noStream,
                events: [try NewEvent(BuyerCreated(guid: guid, projectId: project, externalId: nil, email: sealed,
                                                   emailHash: sealed == nil ? nil : emailHash))],
                metadata: metadata)
        }

        let handoff = try codes.mint(.handoff, source: .payment, guid: guid, paymentId: payment.paymentId,
                                     emailHash: emailHash, org: org, now: now, in: transaction)
        let install = try codes.mint(.install, source: .payment, guid: guid, paymentId: payment.paymentId,
                                     emailHash: nil, org: org, now: now, avoiding: [handoff.codeHash],
                                     in: transaction)
        guard let handoffCode = HandoffCode.parse(handoff.text), let installToken = InstallToken.parse(install.text)
        else { throw APIError(status: 500, code: .internalError, message: "a minted code does not parse") }
        let handoffExpiry = handoff.expiresAt
        let installExpiry = install.expiresAt
        let events = [
            try NewEvent(PaymentRecorded(
                paymentId: payment.paymentId.text, guid: guid.description, projectId: project.description,
                amount: payment.amount, currency: payment.currency, productId: payment.productId,
                entitlement: payment.entitlement, expiresAt: payment.expiresAt.map(PaymentFields.text),
                paywallId: payment.paywallId, bodyHash: bodyHash)),
            handoff.event,
            install.event,
        ]
        try transaction.append(org: org.uuid, stream: PaymentStreams.payment(payment.paymentId),
                               expectedVersion: .noStream, events: events, metadata: metadata)
        return Recorded(guid: guid, paymentId: payment.paymentId, projectId: project, handoffCode: handoffCode,
                        handoffExpiresAt: handoffExpiry, installToken: installToken, installExpiresAt: installExpiry)
    }

    /// Refunds payment `paymentId` of `org` at `now`: one `PaymentRefunded`, the first time only. Returns the
    /// entitlement and the refund instant (the first refund's on a repeat); 404 for a payment this org never recorded.
    public func refund(_ paymentId: PaymentID, org: OrgID, now: Date, metadata: EventMetadata) throws
        -> (entitlement: String, refundedAt: String)
    {
        try store.transact(maxAttempts: 5) { transaction in
            guard let row = try transaction.connection.query("""
                SELECT entitlement,
                    to_char(refunded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS refunded_at
                FROM payments WHERE org_id = $1::uuid AND payment_id = $2 FOR UPDATE
                """, [.text(org.description), .text(paymentId.text)]).rows.first else {
                throw APIError(status: 404, code: .notFound, message: "no payment with this paymentId")
            }
            let entitlement = try row.string("entitlement")
            if !row.isNull("refunded_at") { return (entitlement, try row.string("refunded_at")) }
            let refundedAt = PaymentFields.text(now)
            try transaction.append(org: org.uuid, stream: PaymentStreams.payment(paymentId), expectedVersion: .any,
                                   events: [try NewEvent(PaymentRefunded(paymentId: paymentId.text,
                                                                         refundedAt: refundedAt))],
                                   metadata: metadata)
            return (entitlement, refundedAt)
        }
    }

    /// The stored answer of an already recorded payment with this body; 409 for another body; nil when unknown.
    private func redisplay(_ payment: Payment, bodyHash: String, org: OrgID, on connection: Connection) throws
        -> Recorded?
    {
        guard let row = try connection.query("""
            SELECT body_hash, guid::text AS guid, project_id::text AS project_id FROM payments
            WHERE org_id = $1::uuid AND payment_id = $2
            """, [.text(org.description), .text(payment.paymentId.text)]).rows.first else { return nil }
        guard try ConstantTime.equals(Array(row.string("body_hash").utf8), Array(bodyHash.utf8)) else {
            throw APIError(status: 409, code: .paymentConflict,
                           message: "payment 'paymentId' was already recorded with a different body")
        }
        guard case .success(let guid) = BuyerGuid.parse(try row.string("guid")),
              case .success(let project) = ProjectID.parse(try row.string("project_id")) else {
            throw APIError(status: 500, code: .internalError, message: "a stored payment does not read back")
        }
        var handoff: (HandoffCode, Date)?
        var install: (InstallToken, Date)?
        for code in try connection.query("""
            SELECT kind, sealed_code,
                to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
            FROM handoff_codes WHERE org_id = $1::uuid AND payment_id = $2 AND source = 'payment'
            """, [.text(org.description), .text(payment.paymentId.text)]).rows {
            let kind = try code.string("kind")
            let field: PersonalDataField = kind == "handoff" ? .handoffCode : .installToken
            guard let sealed = SealedValue(try code.string("sealed_code")),
                  case .value(let text) = try subjectKeys.reveal(sealed, field: field, org: org.uuid,
                                                                   subject: guid.description, on: connection),
                  let expiry = PaymentFields.rfc3339(try code.string("expires_at")).value
            else { throw Self.erased }
            if kind == "handoff", let parsed = HandoffCode.parse(text) { handoff = (parsed, expiry) }
            if kind == "install", let parsed = InstallToken.parse(text) { install = (parsed, expiry) }
        }
        guard let handoff, let install else { throw Self.erased }
        return Recorded(guid: guid, paymentId: payment.paymentId, projectId: project, handoffCode: handoff.0,
                        handoffExpiresAt: handoff.1, installToken: install.0, installExpiresAt: install.1)
    }

    /// The lookup hash of a code or token (one namespace for both kinds).
    public func codeHash(_ text: String) -> String { codes.codeHash(text) }

    /// The token of the post-payment page (`PageToken`): the code under deterministic authenticated encryption, so
    /// `GET /done/<token>` can find the code while the URL stays stable across repeats and does not show the code.
    public func pageToken(for code: HandoffCode) -> String {
        pageTokens.seal(code)
    }

    private func bodyHash(_ payment: Payment) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Hex.encode(HMAC.sha256(key: lookupPepper, message: Array(try encoder.encode(payment))))
    }

    private func seal(_ text: String, field: PersonalDataField, org: OrgID, guid: BuyerGuid, on connection: Connection)
        throws -> SealedValue
    {
        guard let sealed = try subjectKeys.seal(text, field: field, org: org.uuid, subject: guid.description,
                                                on: connection) else { throw Self.erased }
        return sealed
    }

    static let foreign = APIError(status: 400, code: .visitorIDForeignProject,
                                  message: "field 'guid' names a buyer of another organization")
    static let erased = APIError(status: 409, code: .paymentConflict,
                                 message: "field 'guid' names a buyer whose personal data was erased")
}

extension Result {
    fileprivate var value: Success? { if case .success(let value) = self { value } else { nil } }
}
