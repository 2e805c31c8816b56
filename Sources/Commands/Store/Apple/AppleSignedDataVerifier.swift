import Crypto
import Domain
import Foundation

/// Verifies App Store signed data as Apple's App Store Server Library does (`SignedDataVerifier`, `ChainVerifier`):
/// notifications V2 (`signedPayload`) with their nested `signedTransactionInfo` and `signedRenewalInfo`.
///
/// For each JWS: three base64url segments; `alg` `ES256`; `x5c` of exactly three certificates, of which only
/// `x5c[0]` (leaf) and `x5c[1]` (intermediate) are used — the chain is built from them up to one of the configured
/// roots, never to `x5c[2]`; the leaf carries OID 1.2.840.113635.100.6.11.1 and the intermediate
/// 1.2.840.113635.100.6.2.1; every certificate is valid at the payload's `signedDate` (at `now` when it has none);
/// the raw `R ‖ S` signature verifies with the leaf's P-256 key. No revocation check (nothing goes to the network).
///
/// Then the notification must name the app: `bundleId` equal; an environment in `environments`; in Production the
/// app's `appAppleId` (so an app without one refuses Production notifications), in Sandbox a different
/// `appAppleId` when one is sent. The nested transaction must have the same `bundleId` and both nested JWS the
/// notification's environment.
///
/// One instance serves all threads; it remembers verified chains (`AppleVerifiedChains`).
public final class AppleSignedDataVerifier: Sendable {
    /// OID of the App Store receipt-signing extension the leaf must carry.
    public static let leafOID = "1.2.840.113635.100.6.11.1"
    /// OID of the Apple WWDR intermediate extension the intermediate must carry.
    public static let intermediateOID = "1.2.840.113635.100.6.2.1"
    /// Certificates an App Store `x5c` holds: leaf, intermediate, root.
    public static let certificateCount = 3

    private let store: X509TrustStore
    private let verifiedChains = AppleVerifiedChains()

    /// A verifier that trusts exactly `roots` (Apple Root CA - G3 in production: `AppleTrustRoots.appleRootCAG3`).
    public init(roots: [X509Certificate]) {
        store = X509TrustStore(roots: roots)
    }

    /// A verifier that trusts `trustRoots`.
    public convenience init(trustRoots: AppleTrustRoots) {
        self.init(roots: trustRoots.certificates)
    }

    /// Verifies a notification's `signedPayload` for the app with `bundleId` and, when known, `appAppleId`.
    ///
    /// `now` is the validation time only for a payload without `signedDate`. `environments` are the environments
    /// the app accepts (both by default: one store URL serves Production and Sandbox).
    public func verifyNotification(
        signedPayload: String, bundleId: String, appAppleId: Int64?,
        environments: Set<AppleEnvironment> = [.production, .sandbox], now: Date
    ) -> Result<VerifiedAppleNotification, AppleVerificationFailure> {
        let notification: AppleNotificationPayload
        switch verify(signedPayload, part: .notification, now: now, decode: AppleNotificationPayload.decode,
                      signedDate: \.signedDate) {
        case .success(let payload): notification = payload
        case .failure(let failure): return .failure(failure)
        }
        let app = notification.app
        guard app.bundleId == bundleId else {
            return .failure(.unauthorized(problem(.bundleIdMismatch, .notification, "bundleId is not the app's")))
        }
        guard let environment = app.environment.flatMap(AppleEnvironment.init(rawValue:)),
              environments.contains(environment) else {
            return .failure(.unauthorized(problem(.environmentNotAccepted, .notification,
                                                  "environment is not one the app accepts")))
        }
        let sameAppleId = environment == .production
            ? appAppleId != nil && app.appAppleId == appAppleId
            : app.appAppleId == nil || appAppleId == nil || app.appAppleId == appAppleId
        guard sameAppleId else {
            return .failure(.unauthorized(problem(.appAppleIdMismatch, .notification, environment == .production
                ? "a Production notification must carry the app's appAppleId" : "appAppleId is not the app's")))
        }
        var transaction: AppleTransaction?
        if let signed = notification.data?.signedTransactionInfo {
            switch verifyTransaction(signedTransaction: signed, bundleId: bundleId, environments: [environment],
                                     now: now) {
            case .success(let value): transaction = value
            case .failure(let failure): return .failure(nestedFailure(failure))
            }
        }
        var renewalInfo: AppleRenewalInfo?
        if let signed = notification.data?.signedRenewalInfo {
            switch verifyRenewalInfo(signedRenewalInfo: signed, environments: [environment], now: now) {
            case .success(let value): renewalInfo = value
            case .failure(let failure): return .failure(nestedFailure(failure))
            }
        }
        return .success(VerifiedAppleNotification(payload: notification, environment: environment,
                                                  transaction: transaction, renewalInfo: renewalInfo))
    }

    /// Verifies a `signedTransactionInfo` (from a notification, the App Store Server API or a device): signature
    /// and chain, `bundleId` equal, environment in `environments`.
    public func verifyTransaction(
        signedTransaction: String, bundleId: String, environments: Set<AppleEnvironment> = [.production, .sandbox],
        now: Date
    ) -> Result<AppleTransaction, AppleVerificationFailure> {
        verify(signedTransaction, part: .transaction, now: now, decode: AppleTransaction.decode,
               signedDate: \.signedDate).flatMap { transaction in
            guard transaction.bundleId == bundleId else {
                return .failure(.unauthorized(problem(.bundleIdMismatch, .transaction, "bundleId is not the app's")))
            }
            return accepted(transaction.environment, environments, .transaction).map { transaction }
        }
    }

    /// Verifies a `signedRenewalInfo`: signature and chain, environment in `environments`.
    public func verifyRenewalInfo(
        signedRenewalInfo: String, environments: Set<AppleEnvironment> = [.production, .sandbox], now: Date
    ) -> Result<AppleRenewalInfo, AppleVerificationFailure> {
        verify(signedRenewalInfo, part: .renewalInfo, now: now, decode: AppleRenewalInfo.decode,
               signedDate: \.signedDate).flatMap { renewalInfo in
            accepted(renewalInfo.environment, environments, .renewalInfo).map { renewalInfo }
        }
    }

    // MARK: - One JWS

    /// The decoded payload of `text` once its form, chain, validity at its `signedDate` and signature are good.
    private func verify<Payload>(
        _ text: String, part: AppleVerificationProblem.Part, now: Date,
        decode: ([UInt8]) -> Result<Payload, ApplePayloadFailure>, signedDate: KeyPath<Payload, Int64?>
    ) -> Result<Payload, AppleVerificationFailure> {
        let jws: CompactJWS
        switch CompactJWS.parse(text) {
        case .success(let parsed): jws = parsed
        case .failure(.malformed(let detail)): return .failure(.malformed(problem(.malformedJWS, part, detail)))
        case .failure(.missingCertificateChain):
            return .failure(.malformed(problem(.missingCertificateChain, part, "the header has no x5c")))
        case .failure(.unsupportedAlgorithm):
            return .failure(.unauthorized(problem(.unsupportedAlgorithm, part, "alg is not ES256")))
        }
        guard jws.certificateChain.count == Self.certificateCount else {
            return .failure(.unauthorized(problem(.wrongCertificateCount, part,
                                                  "x5c has \(jws.certificateChain.count) certificates, not 3")))
        }
        let payload: Payload
        switch decode(jws.payload) {
        case .success(let decoded): payload = decoded
        case .failure(let failure):
            // Only what the App Store signed is judged malformed: a payload that does not decode is first checked
            // against its signature (at `now`: it has no readable `signedDate`), so a payload changed in transit is
            // a 401 like any other tampering, and a signed one the decoder refuses a 400.
            if case .failure(let refusal) = signatureCheck(jws, part: part, at: Self.seconds(now)) {
                return .failure(refusal)
            }
            return .failure(.malformed(problem(.malformedPayload, part, failure.message)))
        }
        let time = payload[keyPath: signedDate].map(Self.seconds(milliseconds:)) ?? Self.seconds(now)
        return signatureCheck(jws, part: part, at: time).map { payload }
    }

    /// Whether `jws` carries a chain up to a configured root, valid at `time`, whose leaf's key made its signature.
    private func signatureCheck(
        _ jws: CompactJWS, part: AppleVerificationProblem.Part, at time: Int64
    ) -> Result<Void, AppleVerificationFailure> {
        let leafKey: ECDSAPublicKey
        switch self.leafKey(jws, part: part, at: time) {
        case .success(let key): leafKey = key
        case .failure(let failure): return .failure(failure)
        }
        guard leafKey.isValidSignature(jws.signature, for: jws.signingInput) else {
            return .failure(.unauthorized(problem(.invalidSignature, part, jws.signature.count
                == CompactJWS.signatureByteCount ? "the signature does not verify"
                : "an ES256 signature is \(CompactJWS.signatureByteCount) bytes, not \(jws.signature.count)")))
        }
        return .success(())
    }

    private static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// The leaf's key once `x5c[0]` and `x5c[1]` chain up to a root with the App Store OIDs, valid at `time`.
    private func leafKey(
        _ jws: CompactJWS, part: AppleVerificationProblem.Part, at time: Int64
    ) -> Result<ECDSAPublicKey, AppleVerificationFailure> {
        let leafText = jws.certificateChain[0]
        let intermediateText = jws.certificateChain[1]
        if let key = verifiedChains.leafKey(leaf: leafText, intermediate: intermediateText, at: time) {
            return .success(key)
        }
        guard let leafDER = jws.certificateDER(at: 0), let leaf = X509Certificate(der: leafDER),
              let intermediateDER = jws.certificateDER(at: 1),
              let intermediate = X509Certificate(der: intermediateDER) else {
            return .failure(.unauthorized(problem(.malformedCertificate, part,
                                                  "x5c[0] and x5c[1] must be base64 DER certificates")))
        }
        let chain: [X509Certificate]
        switch store.verify(leaf: leaf, intermediates: [intermediate], at: time) {
        case .valid(let verified): chain = verified
        case .invalid(let failure):
            let reason: AppleVerificationProblem.Reason = failure.isOutsideValidity
                ? .certificateNotValidAtSignedDate : .untrustedChain
            return .failure(.unauthorized(problem(reason, part, failure.message)))
        }
        guard chain.count == Self.certificateCount, chain[1] == intermediate else {
            return .failure(.unauthorized(problem(.untrustedChain, part,
                                                  "the chain is not leaf, x5c[1], configured root")))
        }
        guard leaf.hasExtension(oid: Self.leafOID) else {
            return .failure(.unauthorized(problem(.missingLeafOID, part,
                                                  "the leaf lacks OID \(Self.leafOID)")))
        }
        guard intermediate.hasExtension(oid: Self.intermediateOID) else {
            return .failure(.unauthorized(problem(.missingIntermediateOID, part,
                                                  "the intermediate lacks OID \(Self.intermediateOID)")))
        }
        guard let key = leaf.ecdsaPublicKey else {
            return .failure(.unauthorized(problem(.unsupportedKey, part, "the leaf's key is not P-256")))
        }
        verifiedChains.remember(leaf: leafText, intermediate: intermediateText, chain: chain, leafKey: key)
        return .success(key)
    }

    // MARK: - Helpers

    private func accepted(
        _ text: String?, _ environments: Set<AppleEnvironment>, _ part: AppleVerificationProblem.Part
    ) -> Result<Void, AppleVerificationFailure> {
        guard let environment = text.flatMap(AppleEnvironment.init(rawValue:)), environments.contains(environment)
        else {
            return .failure(.unauthorized(problem(.environmentNotAccepted, part, "environment is not accepted")))
        }
        return .success(())
    }

    /// A nested JWS's failure; a nested environment the notification's set refused is a mismatch with it.
    private func nestedFailure(_ failure: AppleVerificationFailure) -> AppleVerificationFailure {
        guard case .unauthorized(let found) = failure, found.reason == .environmentNotAccepted else { return failure }
        return .unauthorized(problem(.environmentMismatch, found.part, "environment is not the notification's"))
    }

    private func problem(
        _ reason: AppleVerificationProblem.Reason, _ part: AppleVerificationProblem.Part, _ detail: String
    ) -> AppleVerificationProblem {
        AppleVerificationProblem(reason: reason, part: part, detail: detail)
    }

    /// Whole seconds (rounded down) of an instant in milliseconds since 1970, as OpenSSL's check time wants them.
    static func seconds(milliseconds: Int64) -> Int64 {
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
