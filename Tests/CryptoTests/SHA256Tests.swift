import Crypto
import Testing

/// FIPS 180-4 examples (and the NIST "million a" vector).
struct SHA256Tests {
    @Test func hashingABCGivesTheFIPS180Digest() {
        #expect(Hex.encode(SHA256.hash("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hashingTheEmptyStringGivesTheKnownDigest() {
        #expect(Hex.encode(SHA256.hash("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hash([UInt8]()) == SHA256.hash(""))
    }

    @Test func hashingTheTwoBlockMessageGivesTheFIPS180Digest() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(Hex.encode(SHA256.hash(message)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func hashingAMillionAsGivesTheNISTDigest() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Hex.encode(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hashingAStringHashesItsUTF8Bytes() {
        #expect(SHA256.hash("Grüße") == SHA256.hash(Array("Grüße".utf8)))
    }
}
