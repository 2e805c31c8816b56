import Crypto
import Foundation

/// The deployment's audit signing key (`HANDOFF_AUDIT_SIGNING_KEY`): signs chain heads and their forwards.
public struct ChainHeadSigner: Sendable {
    public let key: Ed25519PrivateKey
    /// `AuditKey.id(of:)` of the public key.
    public let keyId: String

    /// The signer of the 32-byte Ed25519 seed `seed`; nil for another length.
    public init?(seed: [UInt8]) {
        guard let key = Ed25519PrivateKey(seed: seed) else { return nil }
        self.key = key
        keyId = AuditKey.id(of: key.publicKey)
    }

    /// The signed head of `org` at `orgSeq`, whose event has `hash` and `recordedAt`, signed at `signedAt` (kept to
    /// the microsecond).
    public func sign(org: UUID, orgSeq: Int, hash: [UInt8], recordedAt: String, signedAt: Date) -> ChainHead {
        var head = ChainHead(orgId: org, orgSeq: orgSeq, hash: hash, recordedAt: recordedAt,
                             signedAt: ChainHead.canonicalTime(signedAt), keyId: keyId, signature: [])
        head.signature = key.signature(for: head.signedBytes)
        return head
    }

    /// The Ed25519 signature of `bytes` (a forward's body).
    public func signature(for bytes: [UInt8]) -> [UInt8] { key.signature(for: bytes) }
}
