import Crypto
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres

/// `GET /s2s/v1/events?after=<org_seq>&limit=`: the key's organization's history, for finance.
///
/// Answers `{"events":[…],"nextAfter":N}`: each event as `handoff audit export` writes it (`org_seq`, `event_type`,
/// `recorded_at`, `data`, `metadata`, `prev_hash`, `hash` in lowercase hex, …), in `org_seq` order, after `after`
/// (default 0), at most `limit` (default 100, 1–1000). `nextAfter` is the last `org_seq` shown (`after` when none):
/// pass it as `after` for the next page.
///
/// Handoff codes and install tokens are shown as `{"redacted":true}` (a reader of the feed must not be able to
/// redeem them). Other personal data (`pd1.` strings) is opened for the owning org: the plaintext, or
/// `{"erased":true}` once the subject's key was destroyed (or `{"unreadable":true}` for a value that does not
/// open). `hash` and `prev_hash` cover the stored (sealed) data, so the chain is verified from
/// `handoff audit export`, not from this answer.
enum EventsHandler {
    static let defaultLimit = 100
    static let maximumLimit = 1000

    static func history(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let after = try integer(request.query["after"], name: "after", default: 0, range: 0...999_999_999_999)
        let limit = try integer(request.query["limit"], name: "limit", default: defaultLimit, range: 1...maximumLimit)
        guard let identity = environment.identity else {
            throw APIError.unavailable("buyer identity is not configured on this server", retryAfterSeconds: 60)
        }
        let keys = SubjectKeys(masterKey: identity.masterKey)
        let org = tenant.orgId.uuid
        let json: EventJSON = try environment.postgres.withConnection { connection in
            let events = try EventReader.readHistory(org: org, fromSeq: after + 1, limit: limit, on: connection)
            var shown: [EventJSON] = []
            for event in events {
                guard case .object(var record) = AuditExport.json(event) else { continue }
                // Sealed for the buyer (`guid`), or, for a recovery request not yet tied to a buyer, for its address.
                let subject = event.data["guid"]?.stringValue
                    ?? event.data["emailHash"]?.stringValue.map { RecoveryStreams.emailSubject(emailHash: $0) }
                let kind = event.data["kind"]?.stringValue
                record["data"] = try reveal(event.data, key: nil, subject: subject, kind: kind, org: org, keys: keys,
                                            on: connection)
                shown.append(.object(record))
            }
            return .object(["events": .array(shown),
                            "nextAfter": .integer(Int64(events.last?.orgSeq ?? after))])
        }
        return JSONResponse.raw(json.canonicalText)
    }

    /// `value` with every `pd1.` string opened for `subject` (the event's `guid`).
    private static func reveal(_ value: EventJSON, key: String?, subject: String?, kind: String?, org: UUID,
                               keys: SubjectKeys, on connection: Connection) throws -> EventJSON {
        switch value {
        case .object(let members):
            var out: [String: EventJSON] = [:]
            for (name, member) in members {
                out[name] = try reveal(member, key: name, subject: subject, kind: kind, org: org, keys: keys,
                                       on: connection)
            }
            return .object(out)
        case .array(let elements):
            return .array(try elements.map {
                try reveal($0, key: key, subject: subject, kind: kind, org: org, keys: keys, on: connection)
            })
        case .string(let text) where text.hasPrefix(SealedValue.prefix):
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
        default:
            return value
        }
    }

    /// A query parameter that must be a decimal integer in `range`; 400 naming it otherwise.
    private static func integer(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws
        -> Int
    {
        guard let text else { return value }
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let number = Int(text), range.contains(number) else {
            throw APIError.validation(
                "query parameter '\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
