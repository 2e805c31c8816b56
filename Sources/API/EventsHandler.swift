import Commands
import Domain
import Foundation
import HTTPServer

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
    /// The largest `after` taken (12 digits: far beyond any organization's history).
    static let maximumAfter = 999_999_999_999

    static func history(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let after = try integer(request.query["after"], name: "after", default: 0, range: 0...maximumAfter)
        let limit = try integer(request.query["limit"], name: "limit", default: defaultLimit, range: 1...maximumLimit)
        let history = try environment.identity().history
        let json = try environment.model.reads.read(by: tenant.prefix) { pool in
            try history.page(org: tenant.orgId, after: after, limit: limit, from: pool)
        }
        return JSONResponse.raw(json.canonicalText)
    }

    /// A query parameter that must be a decimal integer in `range`; 400 naming it otherwise.
    static func integer(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws
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
