/// An install's click token and its click (issue 21, docs/app-links.md "Click tokens and installs").
extension PlayReferrer {
    /// The referrer as it counts for the install's tier: an `x3c` counts only when it names a known click of the
    /// install's project (`clickKnown`); an unknown one — forged, mistyped or past the clicks' retention — names no
    /// source, and the rest of the referrer decides. The raw `x3c` is kept either way.
    public func counted(clickKnown: Bool) -> PlayReferrer {
        guard !clickKnown else { return self }
        var referrer = self
        referrer.x3c = nil
        return referrer
    }
}
