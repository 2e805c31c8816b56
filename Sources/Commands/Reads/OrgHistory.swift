import Domain
import EventStore
import Foundation
import Postgres

/// An organization's history for finance (`GET /s2s/v1/events`): each event as `handoff audit export` writes it
/// without the deployment-wide `global_pos` and `tx_id`, with personal data opened for the owning org.
///
/// Handoff codes and install tokens are shown as `{"redacted":true}` (a reader of the feed must not be able to
/// redeem them), and so are app secrets and store tokens. Other personal data (`pd1.` strings) is the plaintext, or
/// `{"erased":true}` once the subject's key was destroyed (or `{"unreadable":true}` for a value that does not open).
/// `hash` and `prev_hash` cover the stored (sealed) data, so the chain is verified from `handoff audit export`, not
/// from this answer.
public struct OrgHistory: Sendable {
    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// `{"events":[…],"nextAfter":N}`: up to `limit` events of `org` after `org_seq` `after`, in order; `nextAfter`
    /// is the last `org_seq` shown (`after` when none).
    /// `pool`, when given, is a replica's (`ReadRouting`); the primary's otherwise.
    public func page(org: OrgID, after: Int, limit: Int, from pool: Pool? = nil) throws -> EventJSON {
        try context.log.read(in: .org(org.uuid), from: pool ?? context.log.pool) { connection in
            let events = try EventReader.readHistory(org: org.uuid, fromSeq: after + 1, limit: limit,
                                                     on: connection)
            var shown: [EventJSON] = []
            for event in events {
                guard case .object(var record) = AuditExport.json(event) else { continue }
                // Deployment-wide positions would tell one tenant how much the others write: the feed pages by the
                // org's own `org_seq` only (the audit export, run by the operator, keeps them).
                record["global_pos"] = nil
                record["tx_id"] = nil
                // Sealed for the buyer (`guid`), or, for a recovery request not yet tied to a buyer, for its address.
                let subject = event.data["guid"]?.stringValue
                    ?? leadSubject(event)
                    ?? (event.data["emailRef"] ?? event.data["emailHash"])?.stringValue
                        .map { RecoveryStreams.emailSubject(emailRef: $0) }
                let opener = Opener(keys: context.subjectKeys, org: org.uuid, subject: subject,
                                    kind: event.data["kind"]?.stringValue, connection: connection)
                record["data"] = try opener.reveal(event.data, key: nil)
                shown.append(.object(record))
            }
            return .object(["events": .array(shown), "nextAfter": .integer(Int64(events.last?.orgSeq ?? after))])
        }
    }

    /// An app lead's contact and an install's journey keys are sealed for the install
    /// (`AppLeadStreams.installSubject`).
    private func leadSubject(_ event: RecordedEvent) -> String? {
        guard event.eventType == AppLeadReceived.eventType || event.eventType == AppInstallRecorded.eventType
        else { return nil }
        return event.data["installHash"]?.stringValue.map { AppLeadStreams.installSubject(installHash: $0) }
    }

    /// Opens the `pd1.` strings of one event's data.
    private struct Opener {
        let keys: SubjectKeys
        let org: UUID
        /// The event's `guid` (or address subject); nil: nothing opens.
        let subject: String?
        /// The event's `kind` (`handoff` / `install`), which names the field of a `sealedCode`.
        let kind: String?
        let connection: Connection

        /// The members of app events that hold sealed secrets.
        static let appSecretMembers: Set<String> = Set(AppSecretKind.allCases.map(\.rawValue)
            + ["storeToken", "secret"])

        /// `value` with every `pd1.` string opened; `key` is the member name it was found under.
        func reveal(_ value: EventJSON, key: String?) throws -> EventJSON {
            switch value {
            case .object(let members):
                var out: [String: EventJSON] = [:]
                for (name, member) in members { out[name] = try reveal(member, key: name) }
                return .object(out)
            case .array(let elements):
                return .array(try elements.map { try reveal($0, key: key) })
            case .string(let text) where text.hasPrefix(SealedValue.prefix):
                return try open(text, key: key)
            default:
                return value
            }
        }

        private func open(_ text: String, key: String?) throws -> EventJSON {
            // App secrets and store tokens (sealed for `app:<appId>`) are write-only: never shown, not even here.
            if let key, Self.appSecretMembers.contains(key) { return .object(["redacted": .bool(true)]) }
            guard let sealed = SealedValue(text), let subject else { return .object(["unreadable": .bool(true)]) }
            var fields: [PersonalDataField] = []
            if key == "sealedCode" { fields.append(kind == "install" ? .installToken : .handoffCode) }
            if let key { fields.append(PersonalDataField(rawValue: key)) }
            fields += [.email, .handoffCode, .installToken, .ipAddress]
            for field in fields {
                switch try keys.reveal(sealed, field: field, org: org, subject: subject, on: connection) {
                case .value(let plain):
                    // A live code in a finance feed could be redeemed by whoever reads it: codes stay hidden.
                    if field == .handoffCode || field == .installToken { return .object(["redacted": .bool(true)]) }
                    return .string(plain)
                case .erased: return .object(["erased": .bool(true)])
                case .invalid: continue
                }
            }
            return .object(["unreadable": .bool(true)])
        }
    }
}
