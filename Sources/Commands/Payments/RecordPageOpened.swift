import Domain
import EventStore
import Foundation

/// Records `PostPaymentPageOpened` the first time a payment's post-payment page is opened while its code is usable
/// (stream `page-<paymentId>`), so a buyer's timeline can tell "never opened" from "opened, sent no fingerprint".
///
/// At most one event per payment: the page's read already says whether the stream exists
/// (`PostPaymentPageFacts.Facts.openedBefore`), and two first opens racing each other meet on the stream's version —
/// the later one finds the stream and records nothing.
public struct RecordPageOpened: Sendable {
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// The stream of a payment's page opening.
    public static func stream(paymentId: String) -> String { "page-\(paymentId)" }

    public func run(_ facts: PostPaymentPageFacts.Facts, platform: DevicePlatform?, language: PageLanguage, now: Date,
                    metadata: EventMetadata) throws {
        let stream = Self.stream(paymentId: facts.paymentId)
        try log.transact(in: .org(facts.orgId.uuid)) { transaction in
            let existing = try transaction.connection.queryPrepared(
                "SELECT 1 AS found FROM events WHERE org_id = $1::uuid AND stream_id = $2 LIMIT 1",
                [.text(facts.orgId.description), .text(stream)]).rows
            guard existing.isEmpty else { return }
            let opened = PostPaymentPageOpened(guid: facts.guid.description, paymentId: facts.paymentId,
                                               platform: platform?.rawValue, language: language.rawValue,
                                               openedAt: PaymentFields.text(now))
            try transaction.append(org: facts.orgId.uuid, stream: stream, expectedVersion: .noStream,
                                   events: [try NewEvent(opened)], metadata: metadata)
        }
    }
}
