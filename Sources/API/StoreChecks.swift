import Commands
import Foundation

/// What checks a store notification before it counts: the roots App Store signatures must chain to
/// (`APPLE_ROOT_CERTIFICATES`) and Google's OIDC keys (`GOOGLE_OIDC_JWKS`). Built once at start-up.
public struct StoreChecks: Sendable {
    public let apple: AppleIntake
    public let google: GoogleIntake

    /// Checks with `appleRoots` (the real Apple Root CA - G3 by default) and `googleKeys` (none by default: every
    /// push to an app with a push service account is refused until `GOOGLE_OIDC_JWKS` is set).
    public init(appleRoots: AppleTrustRoots = .appleRootCAG3, googleKeys: GoogleOIDCKeys? = nil) {
        self.apple = AppleIntake(verifier: AppleSignedDataVerifier(trustRoots: appleRoots))
        self.google = GoogleIntake(keys: googleKeys)
    }
}
