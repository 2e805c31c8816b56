import Crypto
import Testing

/// RFC 4231 test vectors for HMAC-SHA256.
struct HMACTests {
    private func tag(_ key: [UInt8], _ message: String) -> String {
        Hex.encode(HMAC.sha256(key: key, message: Array(message.utf8)))
    }

    @Test func rfc4231TestCase1MatchesTheExpectedTag() {
        #expect(tag([UInt8](repeating: 0x0B, count: 20), "Hi There")
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func rfc4231TestCase2WithAShortKeyMatchesTheExpectedTag() {
        #expect(tag(Array("Jefe".utf8), "what do ya want for nothing?")
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func rfc4231TestCase3WithBinaryDataMatchesTheExpectedTag() {
        let mac = HMAC.sha256(key: [UInt8](repeating: 0xAA, count: 20), message: [UInt8](repeating: 0xDD, count: 50))
        #expect(Hex.encode(mac) == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
    }

    @Test func rfc4231TestCase6WithAKeyLongerThanABlockMatchesTheExpectedTag() {
        #expect(tag([UInt8](repeating: 0xAA, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First")
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func rfc4231TestCase7WithALongKeyAndLongDataMatchesTheExpectedTag() {
        let message = "This is a test using a larger than block-size key and a larger than block-size data. "
            + "The key needs to be hashed before being used by the HMAC algorithm."
        #expect(tag([UInt8](repeating: 0xAA, count: 131), message)
            == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    @Test func anEmptyKeyAndEmptyMessageGiveTheKnownTag() {
        #expect(tag([], "") == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func differentKeysGiveDifferentTags() {
        #expect(tag(Array("key-1".utf8), "message") != tag(Array("key-2".utf8), "message"))
    }
}
