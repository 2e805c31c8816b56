import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Records a followed affiliate link (`GET /a/{refCode}`): `AffiliateLinkClicked` (source `link`), and where to send
/// the visitor — the project's landing URL (else its paywall URL) with `click=<signedClickId>` added.
public struct RecordClick: Sendable {
    /// Where the link leads, and the click id it carries.
    public struct Redirect: Sendable, Equatable {
        public var location: String
        public var signedClickId: String
        public var click: ClickFacts
    }

    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Records a click of the affiliate with `code` in `project` — or, without a project, in the one project of the
    /// deployment that holds the code — at `now`, signed with `keys`. Nil, and nothing recorded, when no affiliate
    /// matches (or several do), or when the project has neither a landing URL nor a paywall URL.
    public func run(code: RefCode, project: ProjectID?, now: Date, keys: PassKeys, metadata: EventMetadata) throws
        -> Redirect?
    {
        let id = ClickID(randomBytes: SecureRandom.bytes(16))
        let scope: OrgScope = project.map { .orgOf(.project, .text($0.description)) }
            ?? .orgOf(.refCode, .text(code.text))
        return try log.transact(in: scope) { transaction in
            guard let found = try AffiliateLookup.target(of: code, project: project, on: transaction.connection),
                  let landing = found.landing
            else { return nil }
            let click = ClickFacts.new(id, target: found.target, source: .link, now: now)
            try transaction.append(org: found.org.uuid, stream: AffiliateStreams.click(id), expectedVersion: .noStream,
                                   events: [try NewEvent(AffiliateLinkClicked(click))], metadata: metadata)
            let signed = SignedClickID.issue(click, keys: keys)
            return Redirect(location: AffiliateLinks.landing(landing, signedClickID: signed), signedClickId: signed,
                            click: click)
        }
    }
}
