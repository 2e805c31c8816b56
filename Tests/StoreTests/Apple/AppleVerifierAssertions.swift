import Commands
import Crypto
import Foundation
import TestSupport

/// Verifiers and small readers of verification results shared by the App Store tests.
enum AppleVerifiers {
    /// The test root `testCA.der`.
    static let testRoots = [X509Certificate(der: AppleFixtures.certificateFile("testCA.der"))!]
    /// Trusts the test root only.
    static let test = AppleSignedDataVerifier(roots: testRoots)
    /// Trusts the real Apple Root CA - G3 only (the production default).
    static let real = AppleSignedDataVerifier(trustRoots: .appleRootCAG3)
    /// 2024-01-01T00:00:00Z: the clock for payloads without `signedDate` (inside the test chain's validity).
    static let now = Date(timeIntervalSince1970: 1_704_067_200)
}

extension Result where Failure == AppleVerificationFailure {
    /// The value, or nil when refused.
    var value: Success? { try? get() }

    /// The refusal, or nil when verified.
    var failure: AppleVerificationFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }

    /// `(kind, reason, part)` of the refusal, for one-line expectations.
    var refusal: (kind: String, reason: AppleVerificationProblem.Reason, part: AppleVerificationProblem.Part)? {
        guard let failure else { return nil }
        switch failure {
        case .malformed(let problem): return ("malformed", problem.reason, problem.part)
        case .unauthorized(let problem): return ("unauthorized", problem.reason, problem.part)
        }
    }

    /// Whether the refusal is unauthorized for `reason` in `part`.
    func isUnauthorized(
        _ reason: AppleVerificationProblem.Reason, in part: AppleVerificationProblem.Part = .notification
    ) -> Bool {
        guard let refusal else { return false }
        return refusal.kind == "unauthorized" && refusal.reason == reason && refusal.part == part
    }

    /// Whether the refusal is malformed for `reason` in `part`.
    func isMalformed(
        _ reason: AppleVerificationProblem.Reason, in part: AppleVerificationProblem.Part = .notification
    ) -> Bool {
        guard let refusal else { return false }
        return refusal.kind == "malformed" && refusal.reason == reason && refusal.part == part
    }
}
