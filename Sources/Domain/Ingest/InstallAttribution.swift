/// Decides an install's tier from its sources (docs/app-ingest.md "Installs"). Pure: the caller parses the sources.
///
/// Precedence, first match wins: attribution consent not `g` → `unknown` (sources are not used at all); a Play
/// referrer that names a source → `referrer`; an Apple Ads token resolved as attributed → `apple_ads`, one not yet
/// resolved → `pending` (it may still become `apple_ads`, which outranks what follows); a deep link at first open →
/// `link`; an identity sent with attribution granted → `identity`; else `organic`.
public enum InstallAttribution {
    /// The state of an Apple Ads (AdServices) token.
    public enum AppleAds: Sendable, Equatable {
        /// No token was sent.
        case none
        /// A token awaits the background resolution.
        case unresolved
        /// Resolved: Apple says whether an Apple Ads campaign led to the install.
        case resolved(attributed: Bool)
    }

    /// The install's tier.
    public static func tier(consent: IngestConsent, play: PlayReferrer?, appleAds: AppleAds, link: Bool,
                            identity: Bool) -> InstallTier {
        guard consent.usesInstallSources else { return .unknown }
        if play?.isAttributed == true { return .referrer }
        switch appleAds {
        case .resolved(attributed: true): return .appleAds
        case .unresolved: return .pending
        case .none, .resolved(attributed: false): break
        }
        if link { return .link }
        if identity { return .identity }
        return .organic
    }
}
