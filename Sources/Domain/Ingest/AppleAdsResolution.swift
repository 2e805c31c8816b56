/// What an answer of Apple's AdServices API (`POST <base>/` with the token as `text/plain`) means for a `pending`
/// install, and the tier it ends with. Pure: the caller does the I/O.
///
/// Apple documents: 200 with `{"attribution":true,…}` (the campaign's record) or `{"attribution":false}`; 404 while
/// Apple has no record for the token yet (retry, Apple suggests 5 s apart); 400 for a malformed or expired token (the
/// token lives 24 hours); 5xx while the service is down.
public enum AppleAdsResolution {
    /// The decision of one attempt.
    public enum Decision: Sendable, Equatable {
        /// The install's final tier, why, and Apple's record when attributed.
        case resolve(InstallTier, reason: String, attribution: String?)
        /// Ask again later (the job's retry ladder); the reason is logged.
        case retry(String)
    }

    /// Decides from an answer (`status` nil: no answer at all). `lastAttempt`: no retry is left, so what would be
    /// retried resolves as not attributed (`unresolved`). `link` and `identity` are the install's other sources,
    /// for the tier that follows Apple Ads in precedence.
    public static func decide(status: Int?, attributed: Bool?, record: String?, lastAttempt: Bool, link: Bool,
                              identity: Bool) -> Decision {
        let next = { (reason: String) in Decision.resolve(fallback(link: link, identity: identity), reason: reason,
                                                          attribution: nil) }
        switch (status, attributed) {
        case (200, true?): return .resolve(.appleAds, reason: "attributed", attribution: record)
        case (200, false?): return next("not_attributed")
        case (400, _): return next("invalid_token")
        default:
            let why = status.map { $0 == 200 ? "an unreadable answer" : "status \($0)" } ?? "no answer"
            return lastAttempt ? next("unresolved") : .retry(why)
        }
    }

    /// The tier after Apple Ads when it did not attribute: the rest of `InstallAttribution`'s precedence (the
    /// install was `pending`, so attribution consent was granted and no Play referrer named a source).
    public static func fallback(link: Bool, identity: Bool) -> InstallTier {
        let granted = IngestConsent(mode: .optIn, analytics: .granted, attribution: .granted, recordings: .notUsed,
                                    adMeasurement: .notUsed)
        return InstallAttribution.tier(consent: granted, play: nil, appleAds: .resolved(attributed: false), link: link,
                                       identity: identity)
    }
}
