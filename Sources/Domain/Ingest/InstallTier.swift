/// Where an install came from, as `POST /v1/m/install` answers it (`{"ok":true,"tier":T}`). Wire values: SDKs and the
/// reads use them.
public enum InstallTier: String, Sendable, Equatable, Codable, CaseIterable {
    /// A Play install referrer naming a source (`x3c`, `gclid`, a non-organic UTM).
    case referrer
    /// Apple Ads attributed the install (an AdServices token resolved as attributed).
    case appleAds = "apple_ads"
    /// The first open came through a deep link.
    case link
    /// The install was identified (a batch's `id`) while attribution was granted.
    case identity
    /// Sources were looked at and name none.
    case organic
    /// Attribution consent is not granted: sources were not used.
    case unknown
    /// An Apple Ads token awaits resolution; a higher tier may follow.
    case pending
}
