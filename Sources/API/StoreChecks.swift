import Commands
import Foundation

/// What checks a store notification before it counts: the roots App Store signatures must chain to
/// (`APPLE_ROOT_CERTIFICATES`) and Google's OIDC keys (`GOOGLE_OIDC_JWKS`). Built once at start-up.
public struct StoreChecks: Sendable {
    public let apple: AppleIntake

    /// Checks with `appleRoots` (the real Apple Root CA - G3 by default).
    public init(appleRoots: AppleTrustRoots = .appleRootCAG3) {
        self.apple = AppleIntake(verifier: AppleSignedDataVerifier(trustRoots: appleRoots))
    }
}
