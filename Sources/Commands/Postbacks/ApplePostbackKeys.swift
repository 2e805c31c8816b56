/// Apple's published public keys for postbacks (NIST P-256, base64 DER `SubjectPublicKeyInfo`), exactly as Apple's
/// documentation prints them (docs/postbacks.md cites the pages).
public enum ApplePostbackKeys {
    /// SKAdNetwork 2.1 and later ("Verifying an install-validation postback", StoreKit). The same key is
    /// AdAttributionKit's production key, `apple-cas-identifier/0`.
    public static let production =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVdday"
        + "aPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg=="
    /// AdAttributionKit `apple-development-identifier/0`: development postbacks from end-to-end flows.
    public static let developmentEndToEnd =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAELeEDzpJEP+/qRSE5hJVC1p1J0ssU"
        + "nQGMzBBbvnACBok8OVGGLgxL0myrKiy6lvRtSlLRsWit87i+vftD8AEqeQ=="
    /// AdAttributionKit `apple-development-identifier/1`: development postbacks made in the device's developer
    /// settings.
    public static let developmentSettings =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE8YzdO7eM97s/IJ25kdW5CZ3A14US"
        + "E5IJ5Ha/vhWaxI6UBI1ZxCEvjrKxVluVGe6qWwF1BDFq+QHqKfH5u+wxHQ=="

    /// AdAttributionKit's `kid` values: the production one and the development ones.
    public static let productionKeyId = "apple-cas-identifier/0"
    public static let developmentKeyIds = ["apple-development-identifier/0", "apple-development-identifier/1"]
}
