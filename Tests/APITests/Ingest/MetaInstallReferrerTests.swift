@testable import API
import Testing

/// The Meta Install Referrer decryption (AES-256-GCM as Meta documents it), against a vector made with Python's
/// `cryptography` (`AESGCM(key).encrypt(nonce, plaintext, None)`).
@Suite struct MetaInstallReferrerTests {
    static let key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    static let nonce = "0f0e0d0c0b0a090807060504"
    static let data = "df12d03804becb8cd1fd876f08aab93159562f50ff69c0467a6bcd9e5f7ad14363e49c294f6b41ac16851cdda33c1835"
        + "2730c5615a9f72c9973d2b86121e22e4ed5035661429f5d934765d976a0a27c1a15b23e3b77e65903fc274ef7a3ae82964dab7a1"
        + "8175e0e2bea888dd49f1d5a70376855f75280e82f9620cb89fa4b6ddbcccee6140afe0018dddad7efce2f7c92ae91c894ba3d0906"
        + "4f805"
    static let plaintext = #"{"ad_id":"6000000000001","campaign_id":"6000000000002","campaign_group_name":"Spring","#
        + #""is_instagram":false,"publisher_platform":"facebook"}"#

    private func content(data: String = data, nonce: String = nonce) -> String {
        #"{"app":1234567890,"t":1764630000,"source":{"data":"\#(data)","nonce":"\#(nonce)"}}"#
    }

    @Test func metasReferrerDecryptsToItsCampaignJSON() {
        #expect(MetaInstallReferrer.decrypt(utmContent: content(), keyHex: Self.key) == .decrypted(Self.plaintext))
    }

    @Test func anotherKeyAnAlteredOrTruncatedBoxDoesNotDecryptAndOrdinaryContentIsNotMetas() {
        let otherKey = String(Self.key.dropLast()) + "e"
        #expect(MetaInstallReferrer.decrypt(utmContent: content(), keyHex: otherKey) == .undecryptable)
        let altered = "e" + Self.data.dropFirst()
        #expect(MetaInstallReferrer.decrypt(utmContent: content(data: altered), keyHex: Self.key) == .undecryptable)
        #expect(MetaInstallReferrer.decrypt(utmContent: content(data: String(Self.data.prefix(20))),
                                            keyHex: Self.key) == .undecryptable)
        #expect(MetaInstallReferrer.decrypt(utmContent: content(nonce: "00"), keyHex: Self.key) == .undecryptable)
        #expect(MetaInstallReferrer.decrypt(utmContent: content(), keyHex: "zz") == .undecryptable)
        #expect(MetaInstallReferrer.decrypt(utmContent: "spring_banner", keyHex: Self.key) == .notMeta)
        #expect(MetaInstallReferrer.decrypt(utmContent: #"{"source":"x"}"#, keyHex: Self.key) == .notMeta)
    }
}
