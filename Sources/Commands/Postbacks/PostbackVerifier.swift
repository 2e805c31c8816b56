import Crypto
import Domain
import Foundation

/// Verifies postback signatures: SKAdNetwork's `attribution-signature` (DER ECDSA with SHA-256 over the version's
/// signed string) with the production key, AdAttributionKit's JWS (ES256, RFC 7515 §5.2) with the key its `kid`
/// names.
///
/// Immutable; used by many threads at once. `apple` holds Apple's published keys; tests build one with their own.
public struct PostbackVerifier: Sendable {
    let production: ECDSAPublicKey
    /// Development keys by AdAttributionKit `kid`.
    let development: [String: ECDSAPublicKey]

    /// A verifier with `production` for SKAdNetwork and AdAttributionKit's `apple-cas-identifier/0`, and
    /// `development` keys by `kid`.
    public init(production: ECDSAPublicKey, development: [String: ECDSAPublicKey]) {
        self.production = production
        self.development = development
    }

    /// The verifier with Apple's published keys (`ApplePostbackKeys`).
    public static let apple: PostbackVerifier = {
        func key(_ text: String) -> ECDSAPublicKey {
            guard let der = Data(base64Encoded: text), let key = ECDSAPublicKey(subjectPublicKeyInfo: Array(der))
            else {
                fatalError("an Apple postback key does not parse")
            }
            return key
        }
        return PostbackVerifier(
            production: key(ApplePostbackKeys.production),
            development: Dictionary(uniqueKeysWithValues: zip(
                ApplePostbackKeys.developmentKeyIds,
                [key(ApplePostbackKeys.developmentEndToEnd), key(ApplePostbackKeys.developmentSettings)])))
    }()

    /// `.verified` when Apple's production key signed the postback's signed string, else `.failed`.
    public func verify(_ postback: SKANPostback) -> PostbackSignature {
        production.isValidSignature(der: postback.signature, for: postback.signedMessage) ? .verified : .failed
    }

    /// `.verified` for the production key (`kid` `apple-cas-identifier/0`), `.development` for a development key,
    /// `.failed` for any other `kid` or a signature the named key did not make.
    public func verify(_ postback: AAKPostback) -> PostbackSignature {
        if postback.keyId == ApplePostbackKeys.productionKeyId {
            return production.isValidSignature(postback.signature, for: postback.signingInput) ? .verified : .failed
        }
        guard let key = development[postback.keyId],
              key.isValidSignature(postback.signature, for: postback.signingInput)
        else { return .failed }
        return .development
    }
}
