/// Why App Store signed data was refused: `.malformed` (the intake answers 400) or `.unauthorized` (401).
///
/// Either way nothing may be recorded or forwarded. The problem says what and where, for logs and tests; it holds
/// no value from the payload.
public enum AppleVerificationFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a JWS of the App Store's form: segments, base64url, header, no `x5c`, or a payload that its own signature
    /// covers and that does not decode.
    case malformed(AppleVerificationProblem)
    /// Well-formed but not trustworthy or not for this app: algorithm, chain (not three certificates, one that does
    /// not decode, no path to a configured root), OIDs, validity at `signedDate`, signature (of any length),
    /// bundle id, App Store app id, environment.
    case unauthorized(AppleVerificationProblem)

    /// The problem, whichever the kind.
    public var problem: AppleVerificationProblem {
        switch self {
        case .malformed(let problem), .unauthorized(let problem): problem
        }
    }

    public var description: String {
        switch self {
        case .malformed(let problem): "malformed: \(problem)"
        case .unauthorized(let problem): "unauthorized: \(problem)"
        }
    }
}

/// What was wrong with which JWS of a notification.
public struct AppleVerificationProblem: Hashable, Sendable, CustomStringConvertible {
    /// The rule that failed.
    public enum Reason: String, Hashable, Sendable {
        // Malformed.
        case malformedJWS, missingCertificateChain, malformedPayload
        // Unauthorized.
        case wrongCertificateCount, malformedCertificate, unsupportedAlgorithm, untrustedChain, certificateNotValidAtSignedDate, missingLeafOID,
             missingIntermediateOID, unsupportedKey, invalidSignature, bundleIdMismatch, appAppleIdMismatch,
             environmentNotAccepted, environmentMismatch
    }

    /// Which JWS: the notification itself or one nested in its `data`.
    public enum Part: String, Hashable, Sendable {
        case notification, transaction, renewalInfo
    }

    /// The rule that failed.
    public let reason: Reason
    /// The JWS it failed in.
    public let part: Part
    /// A sentence for logs (OpenSSL's chain error, the field that did not decode); never a payload value.
    public let detail: String

    public init(reason: Reason, part: Part, detail: String) {
        self.reason = reason
        self.part = part
        self.detail = detail
    }

    public var description: String { "\(part.rawValue): \(reason.rawValue) (\(detail))" }
}
