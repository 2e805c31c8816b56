import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Records a payment for a buyer (`POST /s2s/v1/payments`) and mints its handoff code and install token.
///
/// Load state (the stored payment, the guid's buyer) → `PaymentRecording.decide` → mint, seal and append in one
/// transaction. Idempotent by (org, paymentId): a repeat with the same normalized body re-displays the stored codes,
/// another body is refused 409 `PAYMENT_CONFLICT`; a guid of another organization is refused 400
/// `VISITOR_ID_FOREIGN_PROJECT` before anything is recorded. Concurrent first recordings collide on the `payments`
/// primary key (or the payment stream's `.noStream`); `EventLog.transact` runs the losers again, and they find the
/// winner.
public struct RecordPayment: Sendable {
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

    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// Records `payment` in `project` of `org` at `now`, or re-displays it when already recorded with the same body.
    public func run(
        _ payment: Payment, org: OrgID, project: ProjectID, now: Date, metadata: EventMetadata
    ) throws -> Recorded {
        let bodyHash = try self.bodyHash(payment)
        let emailHash = payment.email.map(context.emailHash)
        return try context.log.transact(in: .org(org.uuid), maxAttempts: 8) { transaction in
            let connection = transaction.connection
            let state = try load(payment, emailHash: emailHash, org: org, on: connection)
            let command = PaymentRecording.Command(org: org, guid: payment.guid, bodyHash: bodyHash,
                                                   hasEmail: payment.email != nil)
            switch PaymentRecording.decide(state, command) {
            case .failure(let refusal):
                throw refusal
            case .success(.repeatOf(let stored)):
                return try redisplay(payment.paymentId, stored: stored, org: org, on: connection)
            case .success(.record(let step)):
                // One read of the buyer's data key for the e-mail and both codes.
                let key = try context.subjectKeys.keyFor(org: org.uuid, subject: payment.guid.description,
                                                         on: connection)
                // And one lookup reference of the e-mail, for the buyer's event and the handoff code's.
                let emailRef = try emailHash.map {
                    try LookupRefs.ref(.email, hash: $0, org: org.uuid, on: connection)
                }
                try recordBuyer(step, payment: payment, org: org, project: project, key: key, emailRef: emailRef,
                                metadata: metadata, transaction: transaction)
                return try recordPayment(payment, bodyHash: bodyHash, emailHash: emailHash, org: org,
                                         project: project, now: now, key: key, emailRef: emailRef,
                                         metadata: metadata, transaction: transaction)
            }
        }
    }

    /// The stored payment with this id in `org`, and what the log knows of the payment's guid.
    private func load(_ payment: Payment, emailHash: String?, org: OrgID, on connection: Connection) throws
        -> PaymentRecording.State
    {
        var state = PaymentRecording.State(stored: nil, buyer: nil)
        // The guid's home org comes from `buyer_org` (migration 0015), which looks past row-level security: a guid of
        // another org must be refused, not taken for a new buyer. Both reads go in one round trip.
        let results = try connection.pipeline([
            Statement("""
                SELECT body_hash, guid, project_id::text AS project_id FROM payments
                WHERE org_id = $1::uuid AND payment_id = $2
                """, [.text(org.description), .text(payment.paymentId.text)], prepared: true),
            Statement("""
                SELECT home.org_id::text AS org_id,
                    EXISTS (SELECT 1 FROM buyer_emails e WHERE e.guid = $1 AND e.email_hash = $2) AS has_email
                FROM (SELECT buyer_org($1) AS org_id) home WHERE home.org_id IS NOT NULL
                """, [.text(payment.guid.description), .optional(emailHash)], prepared: true),
        ])
        if let row = results[0].rows.first {
            guard let guid = BuyerGuid(stored: try row.string("guid")),
                  case .success(let project) = ProjectID.parse(try row.string("project_id")) else {
                throw InconsistentState("a stored payment does not read back")
            }
            state.stored = .init(bodyHash: try row.string("body_hash"), guid: guid, projectId: project)
        }
        if let row = results[1].rows.first {
            guard case .success(let home) = OrgID.parse(try row.string("org_id")) else {
                throw InconsistentState("a stored buyer does not read back")
            }
            state.buyer = .init(homeOrg: home, hasThisEmail: try row.bool("has_email"))
        }
        return state
    }

    /// Creates the buyer, or attaches the payment's e-mail to it, as the decider said.
    private func recordBuyer(
        _ step: PaymentRecording.BuyerStep, payment: Payment, org: OrgID, project: ProjectID, key: SubjectKeyState,
        emailRef: String?, metadata: EventMetadata, transaction: EventTransaction
    ) throws {
        let guid = payment.guid
        guard step != .none else { return }
        let sealed = try payment.email.map { email in
            guard let key = key.key else { throw Refusal.erasedBuyer }
            return PersonalData.seal(email.text, field: .email, org: org.uuid, subject: guid.description, key: key)
        }
        switch step {
        case .none:
            return
        case .create:
            try transaction.append(
                org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .noStream,
                events: [try NewEvent(BuyerCreated(guid: guid, projectId: project, externalId: nil, email: sealed,
                                                   emailRef: sealed == nil ? nil : emailRef))],
                metadata: metadata)
        case .attachEmail:
            guard let sealed, let emailRef else { return }
            try transaction.append(
                org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .any,
                events: [try NewEvent(BuyerEmailAttached(guid: guid.description, email: sealed,
                                                         emailRef: emailRef))],
                metadata: metadata)
        }
    }

    /// Mints the two codes and appends `PaymentRecorded` with their `HandoffCodeMinted` to the payment's stream.
    private func recordPayment(
        _ payment: Payment, bodyHash: String, emailHash: String?, org: OrgID, project: ProjectID, now: Date,
        key: SubjectKeyState, emailRef: String?, metadata: EventMetadata, transaction: EventTransaction
    ) throws -> Recorded {
        let guid = payment.guid
        let handoff = try context.codes.mint(.handoff, source: .payment, guid: guid, paymentId: payment.paymentId,
                                             emailHash: emailHash, org: org, now: now, key: key, emailRef: emailRef,
                                             in: transaction)
        let install = try context.codes.mint(.install, source: .payment, guid: guid, paymentId: payment.paymentId,
                                             emailHash: nil, org: org, now: now, avoiding: [handoff.codeHash],
                                             key: key, in: transaction)
        guard let handoffCode = HandoffCode.parse(handoff.text), let installToken = InstallToken.parse(install.text)
        else { throw InconsistentState("a minted code does not parse") }
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
        try ConversionMatch(org: org.uuid, projectId: project.description).confirm(
            .init(orderId: payment.paymentId, source: "payment", amount: payment.amount, currency: payment.currency,
                  productId: payment.productId),
            metadata: metadata, transaction: transaction)
        return Recorded(guid: guid, paymentId: payment.paymentId, projectId: project, handoffCode: handoffCode,
                        handoffExpiresAt: handoff.expiresAt, installToken: installToken,
                        installExpiresAt: install.expiresAt)
    }

    /// The stored answer of an already recorded payment: its codes opened for the buyer.
    private func redisplay(_ paymentId: PaymentID, stored: PaymentRecording.Stored, org: OrgID,
                           on connection: Connection) throws -> Recorded {
        var handoff: (HandoffCode, Date)?
        var install: (InstallToken, Date)?
        for code in try connection.query("""
            SELECT kind, sealed_code,
                to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
            FROM handoff_codes WHERE org_id = $1::uuid AND payment_id = $2 AND source = 'payment'
            """, [.text(org.description), .text(paymentId.text)]).rows {
            let kind = try code.string("kind")
            let field: PersonalDataField = kind == "handoff" ? .handoffCode : .installToken
            // An erased buyer's codes have no sealed copy any more (migration 0024).
            guard let sealed = code["sealed_code"].flatMap(SealedValue.init),
                  case .value(let text) = try context.subjectKeys.reveal(
                      sealed, field: field, org: org.uuid, subject: stored.guid.description, on: connection),
                  case .success(let expiry) = PaymentFields.rfc3339(try code.string("expires_at"))
            else { throw Refusal.erasedBuyer }
            if kind == "handoff", let parsed = HandoffCode.parse(text) { handoff = (parsed, expiry) }
            if kind == "install", let parsed = InstallToken.parse(text) { install = (parsed, expiry) }
        }
        guard let handoff, let install else { throw Refusal.erasedBuyer }
        return Recorded(guid: stored.guid, paymentId: paymentId, projectId: stored.projectId,
                        handoffCode: handoff.0, handoffExpiresAt: handoff.1, installToken: install.0,
                        installExpiresAt: install.1)
    }

    /// HMAC (pepper) of the normalized body: equal bodies, equal hashes; the hash tells nothing about the body.
    private func bodyHash(_ payment: Payment) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Hex.encode(HMAC.sha256(key: context.secrets.lookupPepper,
                                      message: Array(try encoder.encode(payment))))
    }
}
