import Commands
import EventStore
import Foundation

extension Configuration {
    /// The identity secrets the write model needs, or nil when any of the three variables is missing.
    public var identity: IdentitySecrets? {
        identitySecrets.map {
            IdentitySecrets(masterKey: $0.masterKey, lookupPepper: $0.lookupPepper, passKeys: $0.passKeys,
                            previousMasterKeys: previousMasterKeys.map(\.bytes))
        }
    }

    /// The master key ring of `HANDOFF_MASTER_KEY` (wraps) and `HANDOFF_MASTER_KEY_PREVIOUS` (unwrap only); nil when
    /// `HANDOFF_MASTER_KEY` is unset.
    public var masterKeyRing: MasterKeyRing? {
        masterKey.map { MasterKeyRing(current: $0.bytes, previous: previousMasterKeys.map(\.bytes)) }
    }
}

extension EnvironmentReader {
    /// `base64url,base64url,…` (spaces around items ignored), each exactly 32 bytes; empty when unset. A key is
    /// never echoed: a problem names its position.
    func masterKeyList(_ name: String) throws -> [[UInt8]] {
        guard let raw = text(name) else { return [] }
        return try raw.split(separator: ",", omittingEmptySubsequences: false).enumerated().map { index, item in
            let entry = item.trimmingCharacters(in: .whitespaces)
            guard let bytes = Self.decodeBase64URL(entry), bytes.count == 32 else {
                throw ConfigurationError(variable: name, problem: "item \(index + 1) must be base64url of exactly 32 "
                    + "bytes (a former HANDOFF_MASTER_KEY), e.g. from `openssl rand 32 | basenc --base64url`")
            }
            return bytes
        }
    }
}
